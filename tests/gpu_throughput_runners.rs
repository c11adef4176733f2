//! The instruction-throughput and math-accuracy families' runners on a real
//! GPU: the runners and waivers each `--impl` set gives
//! (`throughput_runners`, `fast_math_runner`, `opencl_throughput_runners`,
//! `math_accuracy_runners`), and every runner's launches probed, timed and
//! read back against the CPU reference, with the refusals. Without a CUDA
//! driver or device each test prints `SKIPPED ...` (past the harness's
//! output capture) and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};
use kernels_gpu::math_accuracy::MathFunction;
use ptxsuite::experiments::chain_mismatch;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::launchers::{
    ChainLaunch, ThroughputRunner, fast_math_runner, math_accuracy_runners, opencl_throughput_runners,
    suggested_params, throughput_runners,
};
use ptxsuite::reference::{ArgumentRange, cuda_library_bound, documented_bound, input_sweep, math_function_exact};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{DeviceUnderTest, Implementation, ImplementationSet};

const BLOCKS: u32 = 2;
const ITERATIONS: u32 = 16;

/// Each set's runners are exactly the selected implementations the GPU has
/// (Rust first, then CUDA C; the fast-math twins only where CUDA C is
/// selected; one OpenCL runner per option asked for, in order, launching the
/// Rust kernels' waves), and each selected one it lacks is waived.
#[test]
fn gpu_throughput_runners_follow_the_implementation_set() {
    let Some(all) = gpu_or_skip("gpu_throughput_runners_follow_the_implementation_set") else {
        return;
    };
    let has_cuda_c = all.ptx_implementations().0.contains(&Implementation::CudaC);
    let has_opencl = all.opencl().is_ok();
    note_skipped(&format!(
        "gpu_throughput_runners: CUDA C twins {has_cuda_c}, OpenCL C twins {has_opencl}"
    ));
    drop(all);
    let options = ["", "-cl-mad-enable"];
    for list in ["rust", "rust,cuda-c", "rust,opencl", "all"] {
        let set = ImplementationSet::parse(list).unwrap();
        let dut = DeviceUnderTest::open(CudaOrdinal(0), &set).unwrap();
        let cuda_c = set.contains(Implementation::CudaC);
        let opencl = set.contains(Implementation::OpenClC);
        let (runners, waived) = throughput_runners(&dut).unwrap();
        let launched: Vec<Implementation> = runners.iter().map(|r| r.implementation()).collect();
        let mut expected = vec![Implementation::Rust];
        if cuda_c && has_cuda_c {
            expected.push(Implementation::CudaC);
        }
        assert_eq!(launched, expected, "--impl {list}");
        assert!(runners.iter().all(|r| r.variant().is_empty()), "--impl {list}");
        let waived: Vec<&str> = waived.iter().map(|(what, _)| what.as_str()).collect();
        let expected_waived: &[&str] = if cuda_c && !has_cuda_c { &["CUDA C twins"] } else { &[] };
        assert_eq!(waived, expected_waived, "--impl {list}");

        match fast_math_runner(&dut) {
            None => assert!(
                !cuda_c,
                "--impl {list}: CUDA C selected, no fast-math runner nor waiver"
            ),
            Some(Ok((runner, _))) => {
                assert!(cuda_c, "--impl {list}");
                assert_eq!(
                    (runner.implementation(), runner.variant()),
                    (Implementation::CudaC, "-use_fast_math")
                );
                assert!(runner.wave_blocks(ThroughputKernel::Sinpi).unwrap() > 0);
            }
            Some(Err((what, why))) => {
                assert!(cuda_c && !has_cuda_c, "--impl {list}: {what}: {why}");
                assert_eq!(what, "CUDA C twins with -use_fast_math");
            }
        }

        let (opencl_runners, waived) = opencl_throughput_runners(&dut, &options);
        if opencl && has_opencl {
            let variants: Vec<&str> = opencl_runners.iter().map(|r| r.variant()).collect();
            assert_eq!(variants, options, "--impl {list}: {waived:?}");
            for runner in &opencl_runners {
                assert_eq!(runner.implementation(), Implementation::OpenClC);
                for kernel in [ThroughputKernel::F32Add, ThroughputKernel::Sqrt] {
                    assert_eq!(
                        runner.wave_blocks(kernel).unwrap(),
                        runners[0].wave_blocks(kernel).unwrap(),
                        "{kernel:?}: the twins launch the Rust kernel's wave"
                    );
                }
            }
        } else {
            assert!(opencl_runners.is_empty(), "--impl {list}");
            let waived: Vec<&str> = waived.iter().map(|(what, _)| what.as_str()).collect();
            let expected_waived: &[&str] = if opencl { &["OpenCL C twins"] } else { &[] };
            assert_eq!(waived, expected_waived, "--impl {list}");
        }
    }
}

/// The launch of `kernel` at small arguments on [`BLOCKS`] blocks.
fn launch(kernel: ThroughputKernel, iterations: u32) -> ChainLaunch {
    ChainLaunch {
        kernel,
        params: suggested_params(kernel, ArgumentRange::Small),
        iterations,
        blocks: BLOCKS,
    }
}

/// Times `kernels` on `runner` and checks every thread's chains against the CPU reference.
fn time_and_check(runner: &mut dyn ThroughputRunner, kernels: &[ThroughputKernel]) {
    let what = format!("{} {}", runner.implementation().label(), runner.variant());
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    let threads = BLOCKS * THROUGHPUT_BLOCK_THREADS;
    assert!(
        runner.launch(launch(kernels[0], 1)).is_err(),
        "{what}: a launch before allocate"
    );
    runner.allocate(threads).unwrap();
    for &kernel in kernels {
        let probe = runner.probe_ms(launch(kernel, ITERATIONS)).unwrap();
        assert!(probe.is_finite() && probe > 0.0, "{what} {kernel:?}: probe {probe}");
        let times = runner.time(launch(kernel, ITERATIONS), &settings).unwrap();
        assert_eq!(times.len(), 3, "{what} {kernel:?}");
        assert!(
            times.iter().all(|ms| ms.is_finite() && *ms > 0.0),
            "{what} {kernel:?}: {times:?}"
        );
        let got = runner.read_first_threads(kernel, BLOCKS, threads).unwrap();
        assert_eq!(got.len(), THROUGHPUT_CHAINS * threads as usize);
        let params = suggested_params(kernel, ArgumentRange::Small);
        let mismatch = chain_mismatch(kernel, ArgumentRange::Small, params, &got, threads, ITERATIONS);
        assert_eq!(mismatch, None, "{what} {kernel:?}");
    }
    let f32_kernel = ThroughputKernel::F32Add;
    runner.launch(launch(f32_kernel, 1)).unwrap();
    assert_eq!(
        runner.read_all_f32(BLOCKS).unwrap().len(),
        THROUGHPUT_CHAINS * threads as usize
    );
    // More threads than the outputs hold: refused, launched or read.
    let too_many = ChainLaunch {
        blocks: BLOCKS + 1,
        ..launch(f32_kernel, 1)
    };
    assert!(runner.launch(too_many).is_err(), "{what}: a launch past the outputs");
    assert!(runner.read_first_threads(f32_kernel, BLOCKS + 1, 1).is_err(), "{what}");
    assert!(
        runner.read_first_threads(f32_kernel, BLOCKS, threads + 1).is_err(),
        "{what}"
    );
}

/// Every runner there (the loaded implementations, the fast-math twins, the
/// OpenCL C twins built without an option) probes, times and reads back its
/// kernels' chains as the CPU reference says, and refuses launches and reads
/// past its outputs; OpenCL runs no integer kernel.
#[test]
fn gpu_throughput_runners_time_and_check_their_chains() {
    let Some(dut) = gpu_or_skip("gpu_throughput_runners_time_and_check_their_chains") else {
        return;
    };
    use ThroughputKernel::*;
    let (mut runners, _) = throughput_runners(&dut).unwrap();
    for runner in &mut runners {
        time_and_check(runner.as_mut(), &[F32Fma, I32Mad, U32Div, F64Fma, F16x2Fma, Sin]);
    }
    match fast_math_runner(&dut) {
        Some(Ok((mut runner, _))) => time_and_check(runner.as_mut(), &[CubeMul, Exp2]),
        Some(Err((what, why))) => note_skipped(&format!("{what} not checked: {why}")),
        None => {}
    }
    let (mut opencl, waived) = opencl_throughput_runners(&dut, &[""]);
    for (what, why) in waived {
        note_skipped(&format!("{what} not checked: {why}"));
    }
    for runner in &mut opencl {
        time_and_check(runner.as_mut(), &[F32Add, Sqrt, Fmin, Convert]);
        runner.allocate(BLOCKS * THROUGHPUT_BLOCK_THREADS).unwrap();
        assert!(runner.launch(launch(I32Add, 1)).is_err(), "OpenCL has no i32 twins");
    }
}

/// The math-accuracy runner: its implementations are the PTX ones, it
/// refuses to evaluate before it has inputs and an output, and its values
/// fill the whole sweep within the bound each implementation is held to (the reciprocal's).
#[test]
fn gpu_math_accuracy_runner_evaluates_within_the_bounds() {
    let Some(dut) = gpu_or_skip("gpu_math_accuracy_runner_evaluates_within_the_bounds") else {
        return;
    };
    let (mut runners, waived) = math_accuracy_runners(&dut).unwrap();
    assert_eq!(runners.len(), 1);
    let runner = runners[0].as_mut();
    assert_eq!(runner.implementations(), dut.ptx_implementations().0.as_slice());
    assert_eq!(waived.len(), dut.ptx_implementations().1.len());
    let (function, range, n) = (MathFunction::RcpApprox, ArgumentRange::Small, 4096);
    let implementation = Implementation::Rust;
    assert!(
        runner.values(implementation, function, n).is_err(),
        "no inputs, no output"
    );
    let inputs = input_sweep(function, range, n);
    runner.load_inputs(&inputs).unwrap();
    assert!(runner.values(implementation, function, n).is_err(), "no output");
    runner.allocate(n).unwrap();
    assert!(
        runner.values(implementation, function, n + 1).is_err(),
        "past the buffers"
    );
    for implementation in runner.implementations().to_vec() {
        let got = runner.values(implementation, function, n).unwrap();
        assert_eq!(got.len(), n);
        let bound = match implementation {
            Implementation::CudaC => cuda_library_bound(function, range),
            _ => documented_bound(function, range),
        };
        for (&x, &y) in inputs.iter().zip(&got) {
            let exact = math_function_exact(function, x as f64);
            assert!(bound.allows(x, y, exact), "{implementation:?} 1/{x:e}: {y:e}");
        }
    }
}
