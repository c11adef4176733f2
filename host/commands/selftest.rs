use crate::error::{Error, Result};
use crate::experiments::validate_kernel_timeout;
use crate::gpu::Gpu;
use crate::selftest::{SELF_TESTS, Status, run_all, table};

/// `ptxsuite selftest`: runs every check of [`SELF_TESTS`] on `device` with
/// the kernel time limit `kernel_timeout_s`; returns the table, or prints it
/// and fails if any check failed.
pub fn selftest(device: usize, kernel_timeout_s: f64) -> Result<String> {
    validate_kernel_timeout(kernel_timeout_s)?;
    let gpu = Gpu::open(device)?;
    gpu.set_kernel_timeout(std::time::Duration::from_secs_f64(kernel_timeout_s));
    let outcomes = run_all(&gpu, SELF_TESTS);
    let text = format!(
        "ptxsuite selftest on {} (PTX {})\n{}",
        gpu.info().name,
        crate::ptx::PTX_ARCH,
        table(&outcomes)
    );
    let failed = outcomes.iter().filter(|o| o.status == Status::Failed).count();
    if failed > 0 {
        print!("{text}");
        return Err(Error::Verification {
            what: "ptxsuite selftest".into(),
            detail: format!("{failed} of {} checks failed (table above)", outcomes.len()),
        });
    }
    Ok(text)
}
