//! The execution-claims kernels on a real GPU, each launched once, small:
//! throughput kernels against their CPU references, the accuracy kernel
//! within the documented error bounds (with one `ACCURACY` line per function
//! and argument range on stderr), the control-flow and loop-counter kernels
//! against theirs. Rust kernels and, where NVRTC is there, their CUDA C twins.
//!
//! Without a CUDA driver or device each test prints `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use std::io::Write;

use gpu_support::{gpu_or_skip, note_skipped};
use kernels_gpu::instruction_throughput::{ChainParams, THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};
use kernels_gpu::math_accuracy::MathFunction;
use ptxsuite::device::{exp_accurate, sin};
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::launchers::{self, AnyChainParams, ChainValue, LoopCounter, suggested_params};
use ptxsuite::reference::{
    self, ArgumentRange, BranchLength, PathChoice, cuda_library_bound, documented_bound, error_stats, input_sweep,
    math_function_exact,
};
use ptxsuite::testbed::{DeviceUnderTest, Implementation};

/// Writes `line` to stderr past the test harness's capture, so that the
/// measured errors show in every `cargo test` output.
fn print_uncaptured(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Rust, and CUDA C when NVRTC is there (a GPU machine without it says so).
fn implementations(dut: &DeviceUnderTest) -> Vec<Implementation> {
    let (implementations, waived) = dut.ptx_implementations();
    for why in waived {
        note_skipped(&format!("CUDA C twins skipped: {why}"));
    }
    implementations
}

const BLOCKS: u32 = 4;
const THREADS: u32 = BLOCKS * THROUGHPUT_BLOCK_THREADS;
const ITERATIONS: u32 = 16;

/// Runs a throughput kernel once; its output.
fn run_chains<T: ChainValue>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: ThroughputKernel,
    params: ChainParams<T>,
) -> Vec<T> {
    let mut out = DeviceBuffer::<T>::uninit(dut.gpu(), THREADS as usize * THROUGHPUT_CHAINS).unwrap();
    launchers::throughput(dut, implementation, kernel, &mut out, params, ITERATIONS, BLOCKS).unwrap();
    dut.gpu().synchronize().unwrap();
    out.to_host().unwrap()
}

/// Whether the kernel's GPU result is the reference's bit for bit (IEEE
/// and integer operations only).
fn bit_exact(kernel: ThroughputKernel) -> bool {
    use ThroughputKernel::*;
    !matches!(
        kernel,
        RcpApprox
            | DivApprox
            | RsqrtApprox
            | SinApprox
            | CosApprox
            | Ex2Approx
            | Lg2Approx
            | ExpFast
            | Sin
            | Exp
            | ExpAccurate
    )
}

/// f32 chain values against the reference: equal, or within a relative
/// 10^-4 for the approximations (16 rounds of errors of a few 10^-7), or,
/// for the chaotic large-argument sines, within 1 of `b`.
fn check_f32(what: &str, kernel: ThroughputKernel, params: ChainParams<f32>, range: ArgumentRange, got: &[f32]) {
    let expected = reference::f32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap();
    let chaotic = range == ArgumentRange::Large
        && matches!(
            kernel,
            ThroughputKernel::SinApprox | ThroughputKernel::CosApprox | ThroughputKernel::Sin
        );
    for (i, (&g, &e)) in got.iter().zip(&expected).enumerate() {
        let ok = if chaotic {
            (g - params.b).abs() <= 1.0
        } else if bit_exact(kernel) {
            g.to_bits() == e.to_bits()
        } else {
            (g - e).abs() <= 1e-4 * e.abs().max(1.0)
        };
        assert!(ok, "{what}: chain value {i} is {g}, the reference {e}");
    }
}

#[test]
fn gpu_throughput_kernels_match_their_references() {
    let Some(dut) = gpu_or_skip("gpu_throughput_kernels_match_their_references") else {
        return;
    };
    for implementation in implementations(&dut) {
        for kernel in ThroughputKernel::ALL {
            for range in ArgumentRange::ALL {
                let what = format!("{} {kernel:?} ({})", implementation.label(), range.label());
                match suggested_params(kernel, range) {
                    AnyChainParams::F32(params) => {
                        let got = run_chains(&dut, implementation, kernel, params);
                        check_f32(&what, kernel, params, range, &got);
                    }
                    AnyChainParams::F64(params) => {
                        let got = run_chains(&dut, implementation, kernel, params);
                        assert_eq!(
                            got,
                            reference::f64_fma_throughput_reference(params, THREADS, ITERATIONS),
                            "{what}"
                        );
                    }
                    AnyChainParams::I32(params) => {
                        let got = run_chains(&dut, implementation, kernel, params);
                        let expected = reference::i32_throughput_reference(kernel, params, THREADS, ITERATIONS);
                        assert_eq!(Some(got), expected, "{what}");
                    }
                    AnyChainParams::U32(params) => {
                        let got = run_chains(&dut, implementation, kernel, params);
                        let expected = if kernel == ThroughputKernel::F16x2Fma {
                            reference::f16x2_fma_throughput_reference(params, THREADS, ITERATIONS)
                        } else {
                            reference::u32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap()
                        };
                        assert_eq!(got, expected, "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn gpu_throughput_launcher_refuses_bad_launches() {
    let Some(dut) = gpu_or_skip("gpu_throughput_launcher_refuses_bad_launches") else {
        return;
    };
    let mut small = DeviceBuffer::<f32>::uninit(dut.gpu(), 100).unwrap();
    let params = ChainParams {
        start: 1.0f32,
        step: 0.0,
        a: 1.0,
        b: 0.0,
    };
    let kernel = ThroughputKernel::F32Fma;
    assert!(launchers::throughput(&dut, Implementation::Rust, kernel, &mut small, params, 1, 1).is_err());
    // The wrong element type for the kernel.
    let mut floats = DeviceBuffer::<f32>::uninit(dut.gpu(), 256 * THROUGHPUT_CHAINS).unwrap();
    assert!(
        launchers::throughput(
            &dut,
            Implementation::Rust,
            ThroughputKernel::F64Fma,
            &mut floats,
            params,
            1,
            1
        )
        .is_err()
    );
    let mut words = DeviceBuffer::<u32>::uninit(dut.gpu(), 256 * THROUGHPUT_CHAINS).unwrap();
    let by_zero = ChainParams {
        start: 1u32,
        step: 1,
        a: 0,
        b: 0,
    };
    assert!(
        launchers::throughput(
            &dut,
            Implementation::Rust,
            ThroughputKernel::U32Div,
            &mut words,
            by_zero,
            1,
            1
        )
        .is_err()
    );
}

/// The functions whose CUDA C twin runs the very PTX instructions of the Rust
/// kernel (an intrinsic or inline `asm`), so that both must agree bit for bit.
const SAME_INSTRUCTIONS_IN_THE_TWIN: [MathFunction; 7] = [
    MathFunction::SinApprox,
    MathFunction::CosApprox,
    MathFunction::Ex2Approx,
    MathFunction::Lg2Approx,
    MathFunction::RcpApprox,
    MathFunction::RsqrtApprox,
    MathFunction::ExpFast,
];

#[test]
fn gpu_function_values_stay_within_their_bounds() {
    let Some(dut) = gpu_or_skip("gpu_function_values_stay_within_their_bounds") else {
        return;
    };
    let count = 1 << 14;
    let implementations = implementations(&dut);
    for function in MathFunction::ALL {
        for range in ArgumentRange::ALL {
            let inputs = input_sweep(function, range, count);
            let inp = DeviceBuffer::from_host(dut.gpu(), &inputs).unwrap();
            let mut by_implementation = vec![];
            for &implementation in &implementations {
                let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), count).unwrap();
                launchers::math_function_values(&dut, implementation, function, &inp, &mut out, count).unwrap();
                dut.gpu().synchronize().unwrap();
                let got = out.to_host().unwrap();
                let bound = match implementation {
                    Implementation::CudaC => cuda_library_bound(function, range),
                    _ => documented_bound(function, range),
                };
                for (&x, &y) in inputs.iter().zip(&got) {
                    let exact = math_function_exact(function, x as f64);
                    assert!(
                        bound.allows(x, y, exact),
                        "{} {function:?} at {x:e}: {y:e} against {exact:e}, bound {bound:?}",
                        implementation.label()
                    );
                }
                let stats = error_stats(&inputs, &got, |x| math_function_exact(function, x)).unwrap();
                print_uncaptured(&format!(
                    "ACCURACY {} {function:?} {}: max {:.3} ulp, mean {:.3} ulp, max abs {:.3e}, worst at {:e}",
                    implementation.label(),
                    range.label(),
                    stats.max_ulp,
                    stats.mean_ulp,
                    stats.max_abs,
                    stats.worst_input
                ));
                by_implementation.push((implementation, got));
            }
            // The Rust accurate functions compute on the GPU exactly what they compute on the CPU.
            let rust = &by_implementation[0].1;
            let host: Option<fn(f32) -> f32> = match function {
                MathFunction::Sin => Some(sin),
                MathFunction::ExpAccurate => Some(exp_accurate),
                _ => None,
            };
            if let Some(host) = host {
                for (&x, &y) in inputs.iter().zip(rust) {
                    assert_eq!(
                        y.to_bits(),
                        host(x).to_bits(),
                        "{function:?}({x:e}): GPU {y:e}, CPU {:e}",
                        host(x)
                    );
                }
            }
            // The approximations (`__sinf` … `__expf`) are the same PTX instructions in Rust and
            // CUDA C: the same results, bit for bit. The device layer's own functions (`sin`,
            // `exp`, `cbrt`, …) are other algorithms than CUDA's library, which the twin calls:
            // only their bounds above are checked, and how often they differ is printed.
            if let [(_, rust), (_, cuda_c)] = &by_implementation[..] {
                let differing = rust
                    .iter()
                    .zip(cuda_c)
                    .filter(|(a, b)| a.to_bits() != b.to_bits())
                    .count();
                if SAME_INSTRUCTIONS_IN_THE_TWIN.contains(&function) {
                    assert_eq!(differing, 0, "{function:?} {range:?}: Rust and CUDA C differ");
                } else {
                    print_uncaptured(&format!(
                        "TWINS {function:?} {}: {differing} of {count} results differ from CUDA's library",
                        range.label()
                    ));
                }
            }
        }
    }
}

#[test]
fn gpu_control_flow_kernels_match_their_references() {
    let Some(dut) = gpu_or_skip("gpu_control_flow_kernels_match_their_references") else {
        return;
    };
    let blocks = 4;
    let threads = blocks * kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), threads as usize).unwrap();
    for implementation in implementations(&dut) {
        for choice in [PathChoice::ByLane, PathChoice::ByWarp] {
            for paths in [1, 2, 3, 4, 8, 16, 32] {
                out.fill(f32::NAN).unwrap();
                launchers::divergent_paths(&dut, implementation, choice, &mut out, paths, 9, blocks).unwrap();
                dut.gpu().synchronize().unwrap();
                assert_eq!(
                    out.to_host().unwrap(),
                    reference::paths_reference(choice, threads, paths, 9),
                    "{} {choice:?} with {paths} paths",
                    implementation.label()
                );
            }
            assert!(launchers::divergent_paths(&dut, implementation, choice, &mut out, 33, 9, blocks).is_err());
        }
        for length in [BranchLength::Short, BranchLength::Long] {
            for select_mask in [0, 1, 5] {
                out.fill(f32::NAN).unwrap();
                launchers::branch(&dut, implementation, length, &mut out, select_mask, 11, blocks).unwrap();
                dut.gpu().synchronize().unwrap();
                assert_eq!(
                    out.to_host().unwrap(),
                    reference::branch_reference(length, threads, select_mask, 11),
                    "{} {length:?} with mask {select_mask}",
                    implementation.label()
                );
            }
        }
    }
}

#[test]
fn gpu_loop_counter_kernels_copy_what_the_reference_copies() {
    let Some(dut) = gpu_or_skip("gpu_loop_counter_kernels_copy_what_the_reference_copies") else {
        return;
    };
    let blocks = 4u32;
    let threads = blocks as u64 * kernels_gpu::loop_counters::LOOP_COUNTER_BLOCK_THREADS as u64;
    let (n, offset, stride) = (8u64, 3u64, threads + 32);
    let out_len = (stride * (n - 1) + threads) as usize + 5;
    let in_len = out_len + offset as usize;
    let input: Vec<f32> = (0..in_len).map(|i| i as f32 * 0.5 - 7.0).collect();
    let inp = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), out_len).unwrap();
    let mut expected = vec![-1.0f32; out_len];
    reference::strided_loop(&mut expected, &input, threads, n, offset, stride);
    for implementation in implementations(&dut) {
        for counter in LoopCounter::ALL {
            out.fill(-1.0).unwrap();
            launchers::loop_counter(
                &dut,
                implementation,
                counter,
                &mut out,
                &inp,
                blocks,
                (n, offset, stride),
            )
            .unwrap();
            dut.gpu().synchronize().unwrap();
            assert!(
                out.to_host().unwrap() == expected,
                "{} {counter:?}: the copy differs from the reference",
                implementation.label()
            );
        }
    }
}
