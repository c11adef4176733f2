//! The SASS of an implementation's kernels on the GPU under test, for the
//! experiments whose claims are about instructions (`instructions`,
//! `loop-counters`, `divergence`): the PTX the device loaded, launch bounds
//! included, assembled by `ptxas` for the GPU's own architecture (the driver
//! JIT-compiles the sm_75 PTX for it too) and listed by the disassembler;
//! or, where the tools are missing, why not.

use std::sync::Arc;

use crate::ptx::{KERNELS_PTX, with_launch_bounds};
use crate::report::{ExperimentResult, Waiver};
use crate::sass::{SassFunction, SassModule, SassWaived, architecture, assembled, environment_tools};
use crate::testbed::{Implementation, compile_twins};

/// One implementation's SASS, or why there is none.
pub struct ImplementationSass {
    pub implementation: Implementation,
    module: Arc<Result<SassModule, SassWaived>>,
}

impl ImplementationSass {
    pub fn module(&self) -> Result<&SassModule, &SassWaived> {
        self.module.as_ref().as_ref()
    }

    /// The kernel `entry`'s SASS, if there is SASS and the entry is in it.
    pub fn function(&self, entry: &str) -> Option<&SassFunction> {
        self.module().ok()?.function(entry)
    }
}

/// The SASS of `implementation`'s kernels for a GPU of `compute_capability`
/// (assembled once per process).
pub fn implementation_sass(implementation: Implementation, compute_capability: (u32, u32)) -> ImplementationSass {
    let arch = architecture(compute_capability);
    let module = match (environment_tools(), implementation) {
        (Err(waived), _) => Arc::new(Err(waived)),
        (Ok(tools), Implementation::Rust) => assembled(
            &tools,
            &with_launch_bounds(KERNELS_PTX, compute_capability),
            &arch,
            None,
        ),
        (Ok(tools), Implementation::CudaC) => match compile_twins() {
            Ok(twins) => assembled(&tools, &with_launch_bounds(&twins, compute_capability), &arch, None),
            Err(why) => Arc::new(Err(SassWaived::new(format!("no CUDA C twins: {why}")))),
        },
        (Ok(_), other) => Arc::new(Err(SassWaived::new(format!("{} kernels are not PTX", other.label())))),
    };
    ImplementationSass { implementation, module }
}

/// The SASS of each of `implementations` for the device of `compute_capability`,
/// recorded in `result`: the tools, their versions and the architecture in
/// its setup, or a waiver with the reason.
pub fn sass_for(
    result: &mut ExperimentResult,
    implementations: &[Implementation],
    compute_capability: (u32, u32),
) -> Vec<ImplementationSass> {
    let sass: Vec<ImplementationSass> = implementations
        .iter()
        .map(|&i| implementation_sass(i, compute_capability))
        .collect();
    let assembled: Vec<(&str, &SassModule)> = sass
        .iter()
        .filter_map(|s| Some((s.implementation.label(), s.module().ok()?)))
        .collect();
    if let Some((_, first)) = assembled.first() {
        let which: Vec<&str> = assembled.iter().map(|(label, _)| *label).collect();
        result.setup.push(format!(
            "SASS for {}: {} assembled the PTX of {} as the device loads it; the driver's JIT compiles the same PTX \
             with its own ptxas, so its code may differ in detail; SASS figures are of each kernel's steady loop",
            first.arch,
            first.tools,
            which.join(" and ")
        ));
    }
    let mut reasons: Vec<String> = Vec::new();
    for s in &sass {
        if let Err(waived) = s.module()
            && !reasons.contains(&waived.why)
        {
            reasons.push(waived.why.clone());
            result.waived.push(Waiver {
                what: format!("SASS evidence ({})", s.implementation.label()),
                reason: format!("{}; the PTX counts stand in", waived.why),
            });
        }
    }
    sass
}

/// The reason `result` has no SASS (its waiver), for a row that falls back to PTX.
pub fn sass_waiver(result: &ExperimentResult) -> Option<&str> {
    result
        .waived
        .iter()
        .find(|w| w.what.starts_with("SASS evidence"))
        .map(|w| w.reason.as_str())
}
