//! Which of a family's kernel twins its runners run, and the waivers they
//! report for those left out, and why.

use crate::testbed::Implementation;

/// Whose kernels an experiment measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelSet {
    /// The suite's own (Rust) kernels only.
    Rust,
    /// The Rust kernels and their CUDA C twins, where NVRTC built them.
    WithTwins,
}

/// The CUDA runner's implementations for `kernels` from the PTX modules
/// loaded (and why CUDA C's did not, where it was selected), and the
/// waivers, by implementation (pure: tested without a GPU).
pub(in crate::launchers) fn kernel_set_plan(
    kernels: KernelSet,
    (ptx, ptx_waived): (Vec<Implementation>, Vec<String>),
) -> (Vec<Implementation>, Vec<(Implementation, String)>) {
    match kernels {
        KernelSet::Rust => (vec![Implementation::Rust], Vec::new()),
        KernelSet::WithTwins => (
            ptx,
            ptx_waived.into_iter().map(|why| (Implementation::CudaC, why)).collect(),
        ),
    }
}

/// The CUDA runner's implementations (the PTX modules that loaded) and the
/// waivers of a family with no OpenCL C twins: each reason the CUDA C twins
/// were left out, where they were selected (pure: tested without a GPU).
pub(in crate::launchers) fn cuda_twins_plan(
    (ptx, cuda_c_waived): (Vec<Implementation>, Vec<String>),
) -> (Vec<Implementation>, Vec<(String, String)>) {
    (ptx, twin_waivers(cuda_c_waived, None))
}

/// The waivers of a family of kernel twins: each reason the CUDA C twins
/// were left out, then the OpenCL C twins' (pure: tested without a GPU).
pub(in crate::launchers) fn twin_waivers(cuda_c: Vec<String>, opencl_c: Option<String>) -> Vec<(String, String)> {
    let cuda_c = cuda_c.into_iter().map(|reason| ("CUDA C twins".to_string(), reason));
    cuda_c
        .chain(opencl_c.map(|reason| ("OpenCL C twins".to_string(), reason)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{KernelSet, cuda_twins_plan, kernel_set_plan, twin_waivers};
    use crate::testbed::Implementation::{CudaC, Rust};

    #[test]
    fn waivers_name_the_twins_cuda_c_first() {
        let waived = twin_waivers(vec!["no NVRTC".into()], Some("no OpenCL platform".into()));
        assert_eq!(
            waived,
            [
                ("CUDA C twins".to_string(), "no NVRTC".to_string()),
                ("OpenCL C twins".to_string(), "no OpenCL platform".to_string()),
            ]
        );
        assert!(twin_waivers(Vec::new(), None).is_empty());
        assert_eq!(twin_waivers(Vec::new(), Some("x".into()))[0].0, "OpenCL C twins");
    }

    #[test]
    fn the_plan_runs_rust_alone_or_with_the_twins_that_loaded() {
        let loaded = || (vec![Rust, CudaC], Vec::new());
        let missing = || (vec![Rust], vec!["no NVRTC".to_string()]);
        assert_eq!(kernel_set_plan(KernelSet::Rust, loaded()), (vec![Rust], vec![]));
        // Rust alone: a missing twin is no waiver, since none was to be measured.
        assert_eq!(kernel_set_plan(KernelSet::Rust, missing()), (vec![Rust], vec![]));
        assert_eq!(
            kernel_set_plan(KernelSet::WithTwins, loaded()),
            (vec![Rust, CudaC], vec![])
        );
        assert_eq!(
            kernel_set_plan(KernelSet::WithTwins, missing()),
            (vec![Rust], vec![(CudaC, "no NVRTC".to_string())])
        );
        // CUDA C not selected (`--impl rust`): no twin and no waiver.
        assert_eq!(
            kernel_set_plan(KernelSet::WithTwins, (vec![Rust], vec![])),
            (vec![Rust], vec![])
        );
    }

    #[test]
    fn the_plan_runs_what_loaded_and_waives_the_missing_cuda_c_twins_only() {
        assert_eq!(
            cuda_twins_plan((vec![Rust, CudaC], vec![])),
            (vec![Rust, CudaC], vec![])
        );
        let (implementations, waived) = cuda_twins_plan((vec![Rust], vec!["no NVRTC".into()]));
        assert_eq!(implementations, vec![Rust]);
        assert_eq!(waived, vec![("CUDA C twins".to_string(), "no NVRTC".to_string())]);
        // CUDA C not selected (`--impl rust`): no twin and no waiver.
        assert_eq!(cuda_twins_plan((vec![Rust], vec![])), (vec![Rust], vec![]));
    }
}
