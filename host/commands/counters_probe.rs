//! `ptxsuite counters-probe` (hidden): every step of CUPTI's setup on one
//! GPU, printed as it happens (so that a crash inside CUPTI still leaves
//! the steps before it on the screen), then a few collections of kernels
//! whose counters a model predicts, with every metric's value. What one GPU
//! run needs to diagnose `--counters`.

use std::io::Write;
use std::time::Instant;

use crate::counters::{CounterOutcome, HardwareCounter};
use crate::cupti::{CUPTI_PATH_VARIABLE, Cupti, MetricHost, MetricSet, ProfilerSession};
use crate::error::{DriverResultExt, Error, Result};
use crate::selftest::{CounterWorkload, counter_runs};
use crate::testbed::{DeviceSelection, ImplementationSet, Testbed};

/// Steps 3 to 8: what the profiler interface, the device and the host library say.
fn setup_steps(
    session: &ProfilerSession,
    cupti: &std::sync::Arc<Cupti>,
    dut: &crate::testbed::DeviceUnderTest,
    step: Instant,
) -> Result<()> {
    let info = dut.info();
    say(&format!(
        "step 3 cuptiProfilerInitialize: ok in {:.0} ms",
        step.elapsed().as_secs_f64() * 1e3
    ));
    match session.check_device(info.ordinal.0 as i32) {
        Ok(()) => say("step 4 cuptiProfilerDeviceSupported: supported (or not asked: an older CUPTI)"),
        Err(e) => say(&format!("step 4 cuptiProfilerDeviceSupported: {e}")),
    }
    let chip = match session.chip_name(info.ordinal.0) {
        Ok(chip) => chip,
        Err(e) => {
            say(&format!("step 5 cuptiDeviceGetChipName: FAILED: {e}"));
            return Err(Error::Library(e.to_string()));
        }
    };
    say(&format!("step 5 chip: {chip}"));
    match session.counter_availability(dut.gpu().context().cu_ctx()) {
        Ok(image) => say(&format!("step 6 counter availability image: {} bytes", image.len())),
        Err(e) => say(&format!(
            "step 6 counter availability: {e}{}",
            if e.is_permission_denied() {
                " (NO PERMISSION)"
            } else {
                ""
            }
        )),
    }
    match MetricHost::new(cupti, &chip).and_then(|host| host.base_counter_metrics()) {
        Ok(base) => {
            say(&format!(
                "step 7 host object: {} base counter metrics on {chip}",
                base.len()
            ));
            for counter in HardwareCounter::ALL {
                let name = counter.metric();
                let base_name = name.rsplit_once('.').map_or(name, |(b, _)| b);
                say(&format!(
                    "  {name}: {}",
                    if base.iter().any(|b| b == base_name) {
                        "listed"
                    } else {
                        "NOT LISTED"
                    }
                ));
            }
        }
        Err(e) => say(&format!("step 7 host object: FAILED: {e}")),
    }
    let step = Instant::now();
    let metrics = HardwareCounter::metrics();
    match MetricSet::build(cupti, &chip, &metrics, &mut |line| say(&format!("  {line}"))) {
        Ok(set) => {
            say(&format!(
                "step 8 metric set: {} of {} metrics, {} pass(es), {} refused, in {:.0} ms",
                set.metrics.len(),
                metrics.len(),
                set.passes,
                set.refused.len(),
                step.elapsed().as_secs_f64() * 1e3
            ));
            for (metric, why) in &set.refused {
                say(&format!("  refused {metric}: {why}"));
            }
            Ok(())
        }
        Err(e) => {
            say(&format!("step 8 metric set: FAILED: {e}"));
            Err(Error::Library(e.to_string()))
        }
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Runs the probe on CUDA device `device`; everything is printed as it goes.
pub fn counters_probe(device: usize) -> (String, Result<()>) {
    (String::new(), probe(device))
}

fn probe(device: usize) -> Result<()> {
    say(&format!(
        "counters-probe: {CUPTI_PATH_VARIABLE}={}",
        std::env::var(CUPTI_PATH_VARIABLE).unwrap_or_else(|_| "(unset)".into())
    ));
    let started = Instant::now();
    let cupti = match Cupti::open() {
        Ok(cupti) => cupti,
        Err(e) => {
            say(&format!("step 1 CUPTI library: FAILED: {e}"));
            return Err(Error::Library(e.to_string()));
        }
    };
    say(&format!(
        "step 1 CUPTI library: {} (API version {}) in {:.0} ms",
        cupti.path(),
        cupti.api_version().map_or("unknown".into(), |v| v.to_string()),
        started.elapsed().as_secs_f64() * 1e3
    ));
    drop(cupti);
    let testbed = Testbed::open(
        &DeviceSelection::parse(&device.to_string())?,
        &ImplementationSet::parse("rust")?,
    )?;
    let dut = &testbed.devices()[0];
    let info = dut.info();
    say(&format!(
        "step 2 GPU {}: {} (cc {}.{}, {} SMs, L2 {} MiB, driver {})",
        info.ordinal,
        info.name,
        info.compute_capability.0,
        info.compute_capability.1,
        info.multiprocessors,
        info.l2_cache_bytes >> 20,
        info.driver_version
    ));
    dut.gpu().context().bind_to_thread().during("cuCtxSetCurrent")?;
    let collector = match testbed.counters() {
        Ok(collector) => collector,
        Err(why) => {
            say(&format!("step 3 the run's CUPTI: FAILED: {why}"));
            return Err(Error::Library(why.to_string()));
        }
    };
    let step = Instant::now();
    // The run's own collector and profiler session: the steps below are what its first collection does.
    let setup = collector.with_session(|session| setup_steps(session, collector.cupti(), dut, step));
    match setup {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(e),
        Err(e) => {
            say(&format!("step 3 cuptiProfilerInitialize: FAILED: {e}"));
            return Err(Error::Library(e.to_string()));
        }
    }
    say("step 9 collections (each: range profiler enabled, passes, decoded, evaluated, disabled)");
    let workloads = [
        CounterWorkload::StrideCopy(1),
        CounterWorkload::StrideCopy(2),
        CounterWorkload::StrideCopy(8),
        CounterWorkload::StrideCopy(32),
        CounterWorkload::BankRead(1),
        CounterWorkload::BankRead(32),
    ];
    let runs = counter_runs(&testbed, &workloads, &mut |line| say(&format!("    cupti: {line}")))?;
    let mut failed = false;
    for run in &runs {
        say(&format!("  {} ({:.0} ms):", run.workload.label(), run.seconds * 1e3));
        match &run.outcome {
            CounterOutcome::Counted(counted) => {
                say(&format!("    {} pass(es)", counted.passes));
                for (metric, value) in &counted.values {
                    say(&format!("    {metric} = {value}"));
                }
                for check in &run.checks {
                    say(&format!(
                        "    {} -> {}",
                        check.describe(),
                        if check.agrees() { "agrees" } else { "DISAGREES" }
                    ));
                }
            }
            CounterOutcome::Off(why) => {
                say(&format!("    counters off: {why}"));
                failed = true;
            }
            CounterOutcome::Failed(why) => {
                say(&format!("    FAILED: {why}"));
                failed = true;
            }
        }
    }
    say(&format!(
        "counters-probe: {} in {:.1} s",
        if failed { "FAILED" } else { "done" },
        started.elapsed().as_secs_f64()
    ));
    if failed {
        return Err(Error::Library(
            "the counters probe could not collect (lines above)".into(),
        ));
    }
    Ok(())
}
