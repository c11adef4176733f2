use crate::error::{Error, Result};
use crate::run_settings::validate_kernel_timeout;
use crate::selftest::{SELF_TESTS, Status, run_all, table};
use crate::testbed::{DeviceSelection, ImplementationSet, Testbed};

/// `ptxsuite selftest`: runs every check of [`SELF_TESTS`] on the selected
/// devices (single-GPU checks on the first) with the kernel time limit
/// `kernel_timeout_s`; returns the table, or prints it and fails if any check failed.
pub fn selftest(
    devices: &DeviceSelection,
    implementations: &ImplementationSet,
    kernel_timeout_s: f64,
) -> (String, Result<()>) {
    let mut text = String::new();
    let result = selftest_into(devices, implementations, kernel_timeout_s, &mut text);
    (text, result)
}

fn selftest_into(
    devices: &DeviceSelection,
    implementations: &ImplementationSet,
    kernel_timeout_s: f64,
    text: &mut String,
) -> Result<()> {
    validate_kernel_timeout(kernel_timeout_s)?;
    let testbed = Testbed::open(devices, implementations)?;
    for dut in testbed.devices() {
        dut.gpu()
            .set_kernel_timeout(std::time::Duration::from_secs_f64(kernel_timeout_s));
    }
    let outcomes = run_all(&testbed, SELF_TESTS);
    let names: Vec<String> = testbed
        .devices()
        .iter()
        .map(|d| format!("{} (GPU {})", d.info().name, d.info().ordinal))
        .collect();
    text.push_str(&format!(
        "ptxsuite selftest on {} (PTX {})\n{}",
        names.join(", "),
        crate::ptx::PTX_ARCH,
        table(&outcomes)
    ));
    let failed = outcomes.iter().filter(|o| o.status == Status::Failed).count();
    if failed > 0 {
        return Err(Error::Verification {
            what: "ptxsuite selftest".into(),
            detail: format!("{failed} of {} checks failed (table above)", outcomes.len()),
        });
    }
    Ok(())
}
