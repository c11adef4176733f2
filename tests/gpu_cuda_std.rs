//! On a real GPU: the kernels written in Rust-CUDA's `cuda_std` style
//! (`kernels-gpu/src/compat_layer/`, launched with Rust-CUDA's slice ABI:
//! each slice as pointer and length) and their `ptx-device` twins against
//! the CPU, the launchers' refusals, and the `cuda-std` experiment end to
//! end (every point checked, the DRAM ceiling applied, the table rendered).
//! Prints the measured figures (`cudastd: ...` lines) for the lead.
//!
//! Without a CUDA driver or device each test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use indicatif::ProgressBar;
use kernels_gpu::compat_layer::COMPAT_BLOCK_THREADS;
use ptxsuite::Error;
use ptxsuite::copy_element::first_mismatch;
use ptxsuite::experiments::{self, RunContext};
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::launchers::{self, CompatKernel, KernelLayer};
use ptxsuite::reference::{block_tree_sums, vector_add};
use ptxsuite::report::{Report, Status};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{ImplementationSet, Testbed};

fn values(len: usize, salt: u32) -> Vec<f32> {
    (0..len)
        .map(|i| ((i as u32).wrapping_mul(2_654_435_761).wrapping_add(salt) % 4093) as f32 / 64.0 - 32.0)
        .collect()
}

#[test]
fn gpu_cuda_std_kernels_match_the_cpu() {
    let Some(dut) = gpu_or_skip("gpu_cuda_std_kernels_match_the_cpu") else {
        return;
    };
    // Several sizes: one element, one block, a partial block, millions.
    for n in [1usize, 256, 1000, (1 << 22) + 5] {
        let (a, b) = (values(n, 1), values(n, 2));
        let a_device = DeviceBuffer::from_host(dut.gpu(), &a).unwrap();
        let b_device = DeviceBuffer::from_host(dut.gpu(), &b).unwrap();
        let room = 300; // past n: nothing may be written there
        let mut add_expected = vector_add(&a, &b);
        add_expected.resize(n + room, -7.0);
        let mut sums_expected = block_tree_sums(&a, COMPAT_BLOCK_THREADS as usize);
        let blocks = sums_expected.len();
        sums_expected.resize(blocks + room, -7.0);
        let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), n + room).unwrap();
        let mut partial = DeviceBuffer::<f32>::uninit(dut.gpu(), blocks + room).unwrap();
        for layer in KernelLayer::ALL {
            c.fill(-7.0).unwrap();
            launchers::vecadd(&dut, layer, &mut c, &a_device, &b_device, n as u64).unwrap();
            let mismatch = first_mismatch(&c.to_host().unwrap(), &add_expected);
            assert!(mismatch.is_none(), "{} n = {n}: {mismatch:?}", layer.label());
            partial.fill(-7.0).unwrap();
            launchers::block_sum(&dut, layer, &mut partial, &a_device, n as u64).unwrap();
            let mismatch = first_mismatch(&partial.to_host().unwrap(), &sums_expected);
            assert!(mismatch.is_none(), "{} block sum n = {n}: {mismatch:?}", layer.label());
        }
    }
}

#[test]
fn gpu_cuda_std_launchers_refuse_out_of_bounds_launches() {
    let Some(dut) = gpu_or_skip("gpu_cuda_std_launchers_refuse_out_of_bounds_launches") else {
        return;
    };
    let a = DeviceBuffer::<f32>::from_host(dut.gpu(), &values(1000, 1)).unwrap();
    let short = DeviceBuffer::<f32>::from_host(dut.gpu(), &values(999, 2)).unwrap();
    let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), 1000).unwrap();
    let mut partial = DeviceBuffer::<f32>::uninit(dut.gpu(), 3).unwrap(); // 1000 elements need 4 sums
    for layer in KernelLayer::ALL {
        let refused = |result: ptxsuite::Result<()>| matches!(result, Err(Error::InvalidLaunch { .. }));
        assert!(refused(launchers::vecadd(&dut, layer, &mut c, &a, &short, 1000)));
        assert!(refused(launchers::vecadd(&dut, layer, &mut c, &a, &a, 0)));
        assert!(refused(launchers::block_sum(&dut, layer, &mut partial, &a, 1000)));
        assert!(refused(launchers::block_sum(&dut, layer, &mut partial, &a, 1001)));
        launchers::block_sum(&dut, layer, &mut partial, &a, 768).unwrap();
    }
    dut.gpu().synchronize().unwrap();
}

/// Every runner of the family sizes an output per algorithm, times each
/// layer's kernel over a partial last block (one time per sample) and reads
/// back an output equal bit for bit to the CPU's; a launch into an output
/// sized for the other algorithm is refused.
#[test]
fn gpu_compat_layer_runner_times_and_checks_both_layers() {
    use ptxsuite::launchers::compat_layer_runners;
    let Some(dut) = gpu_or_skip("gpu_compat_layer_runner_times_and_checks_both_layers") else {
        return;
    };
    let settings = RunSettings {
        samples: 2,
        reps: 3,
        ..RunSettings::default()
    };
    let n = 5 * COMPAT_BLOCK_THREADS as usize + 7;
    let (a, b) = (values(n, 1), values(n, 2));
    let (mut runners, waived) = compat_layer_runners(&dut, &a, &b).unwrap();
    assert!(waived.is_empty(), "the pairs have no twins to waive: {waived:?}");
    assert!(!runners.is_empty());
    for runner in &mut runners {
        assert!(runner.clear_output().is_err(), "no output sized yet");
        for kernel in CompatKernel::ALL {
            let expected = match kernel {
                CompatKernel::VectorAdd => vector_add(&a, &b),
                CompatKernel::BlockSum => block_tree_sums(&a, COMPAT_BLOCK_THREADS as usize),
            };
            runner.size_output(kernel).unwrap();
            for layer in KernelLayer::ALL {
                runner.clear_output().unwrap();
                let times = runner.time(kernel, layer, &settings).unwrap();
                let what = format!("{} · {}", kernel.name(), layer.label());
                assert_eq!(times.len(), 2, "{what}");
                assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{what}: {times:?}");
                let mismatch = first_mismatch(&runner.read_output().unwrap(), &expected);
                assert!(mismatch.is_none(), "{what}: {mismatch:?}");
            }
        }
        // The output is now the block sums': a vector add into it is refused, not launched.
        let refused = runner.time(CompatKernel::VectorAdd, KernelLayer::CudaStd, &settings);
        assert!(matches!(refused, Err(Error::InvalidInput(_))), "{refused:?}");
    }
}

#[test]
fn gpu_cuda_std_experiment_measures_both_layers() {
    let Some(dut) = gpu_or_skip("gpu_cuda_std_experiment_measures_both_layers") else {
        return;
    };
    let info = dut.info().clone();
    let testbed = Testbed::of(vec![dut], ImplementationSet::default()).unwrap();
    let settings = RunSettings {
        buffer_mib: None, // the default: 8 × L2, so the figures are DRAM's
        reps: 5,
        samples: 5,
        ..RunSettings::default()
    };
    let progress = ProgressBar::hidden();
    let ctx = RunContext {
        testbed: &testbed,
        device: &testbed.devices()[0],
        settings: &settings,
        progress: &progress,
        out_dir: None,
    };
    let experiment = experiments::find("cuda-std").expect("registered");
    let result = experiments::run_one(experiment, &ctx).unwrap();
    assert_eq!(result.status, Status::Ok, "{}", result.status);
    assert_eq!(result.series.len(), 4, "two algorithms × two layers");
    let mut report = Report::new(vec![info], &settings, Vec::new(), Vec::new(), vec![result]);
    assert_eq!(
        report.check_and_grade(&experiments::hooks),
        0,
        "a figure past the DRAM ceiling"
    );
    for series in &report.experiments[0].series {
        let point = &series.points[0];
        assert!(point.status.is_ok(), "{}: {}", series.label, point.status);
        let value = point.value.expect("a checked figure");
        note_skipped(&format!(
            "cudastd: {} {:.1} GB/s (min {:.1}, max {:.1})",
            series.label, value.median, value.min, value.max
        ));
    }
    let rendered = report.render(&experiments::hooks).unwrap();
    let markdown = &rendered.files.iter().find(|(file, _)| file == "report.md").unwrap().1;
    for kernel in CompatKernel::ALL {
        assert!(
            markdown.contains(&format!("| {} |", kernel.name())),
            "{} missing from the table",
            kernel.name()
        );
        let line = markdown
            .lines()
            .find(|l| l.starts_with(&format!("{}: cuda_std · Rust", kernel.name())))
            .unwrap_or_else(|| panic!("no ratio for {}", kernel.name()));
        note_skipped(&format!("cudastd: {line}"));
    }
}
