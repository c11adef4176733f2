//! The self-test checks of the execution-claims kernels (`instructions`,
//! `accuracy`, `divergence`, `loop-counters`): every kernel of each family
//! once, small, on every PTX implementation, against the CPU references.

use kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;
use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, ThroughputKernel};
use kernels_gpu::loop_counters::LOOP_COUNTER_BLOCK_THREADS;
use kernels_gpu::math_accuracy::MathFunction;

use super::SelfTest;
use super::checks::{first, verified};
use crate::copy_element::first_mismatch;
use crate::device::{exp_accurate, sin};
use crate::error::Result;
use crate::experiments::chain_mismatch;
use crate::gpu::DeviceBuffer;
use crate::launchers::{self, LoopCounter, ThroughputOutputs, suggested_params};
use crate::reference::{
    self, ArgumentRange, BranchLength, PathChoice, cuda_library_bound, documented_bound, input_sweep,
    math_function_exact,
};
use crate::testbed::{Implementation, Testbed};

/// The checks of the execution kernels (throughput, math functions, control flow, loop counters),
/// in the order `ptxsuite selftest` runs them (gathered with the other families' by
/// [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[
    SelfTest {
        name: "instruction throughput kernels (26, small and large arguments)",
        run: throughput_kernels,
    },
    SelfTest {
        name: "math_function_values (fast and accurate, within their bounds)",
        run: function_values,
    },
    SelfTest {
        name: "divergence and predication kernels",
        run: control_flow,
    },
    SelfTest {
        name: "loop-counter kernels (i32, u32, usize, unchecked i32)",
        run: loop_counters,
    },
];

/// Blocks of every launch here.
const BLOCKS: u32 = 4;
/// Rounds of the throughput and control-flow kernels.
const ROUNDS: u32 = 9;

/// Every throughput kernel at small and large arguments.
pub(super) fn throughput_kernels(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let threads = BLOCKS * THROUGHPUT_BLOCK_THREADS;
    let mut outputs = ThroughputOutputs::new(dut.gpu(), threads)?;
    for implementation in dut.ptx_implementations().0 {
        for kernel in ThroughputKernel::ALL {
            for range in ArgumentRange::ALL {
                let params = suggested_params(kernel, range);
                outputs.launch(dut, implementation, kernel, params, ROUNDS, BLOCKS)?;
                let got = outputs.read_first_threads(kernel, BLOCKS, threads)?;
                verified(
                    format!("{} · {} ({})", kernel.entry(), implementation.label(), range.label()),
                    chain_mismatch(kernel, range, params, &got, threads, ROUNDS),
                )?;
            }
        }
    }
    Ok(())
}

/// `math_function_values` for every function and range: within the
/// documented bound, and the Rust accurate functions equal to the CPU's.
pub(super) fn function_values(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let count = 4096;
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), count)?;
    for implementation in dut.ptx_implementations().0 {
        for function in MathFunction::ALL {
            for range in ArgumentRange::ALL {
                let inputs = input_sweep(function, range, count);
                let inp = DeviceBuffer::from_host(dut.gpu(), &inputs)?;
                out.fill(f32::NAN)?;
                launchers::math_function_values(dut, implementation, function, &inp, &mut out, count)?;
                let got = out.to_host()?;
                let bound = match implementation {
                    Implementation::CudaC => cuda_library_bound(function, range),
                    _ => documented_bound(function, range),
                };
                let host: Option<fn(f32) -> f32> = match (implementation, function) {
                    (Implementation::Rust, MathFunction::Sin) => Some(sin),
                    (Implementation::Rust, MathFunction::ExpAccurate) => Some(exp_accurate),
                    _ => None,
                };
                let mismatch = inputs.iter().zip(&got).find_map(|(&x, &y)| {
                    let exact = math_function_exact(function, x as f64);
                    if let Some(host) = host
                        && host(x).to_bits() != y.to_bits()
                    {
                        return Some(format!("at {x:e}: {y:e}, the CPU {:e}", host(x)));
                    }
                    (!bound.allows(x, y, exact)).then(|| format!("at {x:e}: {y:e} against {exact:e}, bound {bound:?}"))
                });
                verified(
                    format!(
                        "math_function_values {function:?} · {} ({})",
                        implementation.label(),
                        range.label()
                    ),
                    mismatch,
                )?;
            }
        }
    }
    Ok(())
}

/// The paths kernels at k = 1, 3, 32 per lane and per warp, and both if/else kernels split and not.
pub(super) fn control_flow(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let threads = BLOCKS * DIVERGENCE_BLOCK_THREADS;
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), threads as usize)?;
    for implementation in dut.ptx_implementations().0 {
        for choice in [PathChoice::ByLane, PathChoice::ByWarp] {
            for paths in [1, 3, 32] {
                out.fill(f32::NAN)?;
                launchers::divergent_paths(dut, implementation, choice, &mut out, paths, ROUNDS, BLOCKS)?;
                verified(
                    format!(
                        "{} · {} with {paths} paths",
                        launchers::paths_kernel(choice),
                        implementation.label()
                    ),
                    first_mismatch(
                        &out.to_host()?,
                        &reference::paths_reference(choice, threads, paths, ROUNDS),
                    ),
                )?;
            }
        }
        for length in [BranchLength::Short, BranchLength::Long] {
            for mask in [0, 1] {
                out.fill(f32::NAN)?;
                launchers::branch(dut, implementation, length, &mut out, mask, ROUNDS, BLOCKS)?;
                verified(
                    format!(
                        "{} · {} with mask {mask}",
                        launchers::branch_kernel(length),
                        implementation.label()
                    ),
                    first_mismatch(
                        &out.to_host()?,
                        &reference::branch_reference(length, threads, mask, ROUNDS),
                    ),
                )?;
            }
        }
    }
    Ok(())
}

/// Every loop-counter kernel once, at an offset and a stride past the thread count.
pub(super) fn loop_counters(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let threads = (BLOCKS * LOOP_COUNTER_BLOCK_THREADS) as u64;
    let (n, offset, stride) = (8u64, 3u64, threads + 32);
    let out_len = (stride * (n - 1) + threads) as usize + 5;
    let input: Vec<f32> = (0..out_len + offset as usize).map(|i| i as f32 * 0.5 - 7.0).collect();
    let inp = DeviceBuffer::from_host(dut.gpu(), &input)?;
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), out_len)?;
    let mut expected = vec![-1.0f32; out_len];
    reference::strided_loop(&mut expected, &input, threads, n, offset, stride);
    for implementation in dut.ptx_implementations().0 {
        for counter in LoopCounter::ALL {
            out.fill(-1.0)?;
            launchers::loop_counter(
                dut,
                implementation,
                counter,
                &mut out,
                &inp,
                BLOCKS,
                (n, offset, stride),
            )?;
            verified(
                format!("{} · {}", counter.kernel(), implementation.label()),
                first_mismatch(&out.to_host()?, &expected),
            )?;
        }
    }
    Ok(())
}
