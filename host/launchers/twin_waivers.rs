//! The waivers a family's runners report: which twins were left out, and why.

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
    use super::twin_waivers;

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
}
