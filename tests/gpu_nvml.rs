//! On a real GPU: NVML finds the CUDA device (by UUID), reads its facts, and
//! the telemetry sampler sees it while a kernel runs. The facts and figures
//! are printed (`NVML ...` lines) for the lead.
//!
//! Without a CUDA driver or device, or without NVML on a GPU machine, each
//! test prints `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use std::time::Duration;

use gpu_support::{gpu_or_skip, note_skipped};
use ptxsuite::facts::MatchedBy;
use ptxsuite::launchers;
use ptxsuite::nvml::TelemetrySampler;
use ptxsuite::report::telemetry_figures;
use ptxsuite::testbed::{ImplementationSet, Testbed};

fn testbed_or_skip(test: &str) -> Option<Testbed> {
    let dut = gpu_or_skip(test)?;
    let testbed = Testbed::of(vec![dut], ImplementationSet::default()).unwrap();
    if let Err(why) = testbed.nvml() {
        note_skipped(&format!("SKIPPED {test}: {why}"));
        return None;
    }
    Some(testbed)
}

#[test]
fn gpu_nvml_matches_the_cuda_device_and_reads_its_facts() {
    let Some(testbed) = testbed_or_skip("gpu_nvml_matches_the_cuda_device_and_reads_its_facts") else {
        return;
    };
    let info = testbed.devices()[0].info().clone();
    let gpus = testbed.nvml().unwrap();
    assert!(gpus.unmatched().is_empty(), "{:?}", gpus.unmatched());
    let gpu = gpus.gpu(info.ordinal).expect("device 0 matched");
    let facts = &gpu.facts;
    println!("NVML SOURCE: {}", gpus.source());
    println!("NVML FACTS: {}", serde_json::to_string(facts).unwrap());
    if let Some(uuid) = &info.uuid {
        assert_eq!(facts.matched_by, MatchedBy::Uuid);
        assert!(facts.uuid.eq_ignore_ascii_case(uuid), "{} vs {uuid}", facts.uuid);
    }
    assert_eq!(facts.pci.map(|p| p.to_string()), Some(info.pci_bus_id.clone()));
    assert!(!facts.name.is_empty());
    // NVML's maximum SM clock is the peak the driver reports to CUDA (within 10%).
    let cuda_mhz = info.sm_clock_khz as f64 / 1000.0;
    let nvml_mhz = facts.max_sm_clock_mhz.expect("max SM clock") as f64;
    assert!(
        (nvml_mhz / cuda_mhz - 1.0).abs() < 0.1,
        "NVML {nvml_mhz} MHz, CUDA {cuda_mhz} MHz"
    );
    assert!(
        facts.power_limit_w.is_some_and(|w| w > 10.0),
        "{:?}",
        facts.power_limit_w
    );
    println!("NVML PCIE: {}", facts.pcie.describe());
    println!(
        "NVML NVLINK: {}",
        facts.describe_nvlinks().unwrap_or_else(|| "none active".into())
    );
    println!(
        "NVML PCIE THEORETICAL GB/s: {:?}",
        testbed.pcie_theoretical_gbps(info.ordinal)
    );
    assert_eq!(testbed.nvlink_theoretical_gbps(info.ordinal, info.ordinal), None);
}

#[test]
fn gpu_nvml_sampler_sees_the_gpu_while_a_kernel_runs() {
    let Some(testbed) = testbed_or_skip("gpu_nvml_sampler_sees_the_gpu_while_a_kernel_runs") else {
        return;
    };
    let dut = &testbed.devices()[0];
    let ordinal = dut.info().ordinal;
    let mut sampler = TelemetrySampler::start(testbed.nvml(), Duration::from_millis(20));
    assert!(sampler.is_sampling());
    let start = sampler.begin();
    launchers::spin_wait(dut, Duration::from_millis(600)).unwrap();
    dut.gpu().synchronize().unwrap();
    sampler.end(start, "spin", Some(ordinal.0));
    let record = sampler.finish();
    let device = record.device(ordinal).expect("GPU sampled");
    let spin = device.during("spin").expect("a window for the spin");
    println!(
        "NVML DURING A 600 MS SPIN: {} over {} samples; reasons {:?}",
        telemetry_figures(spin, device.facts.power_limit_w),
        spin.samples,
        spin.reasons
    );
    assert!(spin.samples >= 10, "{} samples in 600 ms at 20 ms", spin.samples);
    let sm = spin.sm_clock_mhz.expect("SM clock sampled");
    assert!(sm.max > 0.0);
    assert!(spin.power_w.is_some_and(|p| p.max > 0.0));
    assert!(spin.temperature_c.is_some_and(|t| t.max > 0.0 && t.max < 120.0));
    assert!(spin.reason_samples > 0, "clock event reasons reported");
    assert!(device.run.samples >= spin.samples);
}
