//! `ptxsuite selftest`: every kernel and every host path once, at small
//! sizes, checked against the host references. Quick enough to run under
//! `compute-sanitizer` (memcheck, racecheck, synccheck, initcheck).
//!
//! A check is a function of the [`Testbed`] in [`SELF_TESTS`]: `Ok` passes, an
//! [`Error::Waived`] is a waiver (no NVRTC, no cuBLAS, no mapped memory, one
//! GPU only) and any other error or a panic fails. Add a check by adding a row.

mod checks;
mod counter_checks;
mod cuda_std_checks;
mod execution_checks;
mod matmul_checks;
mod memory_claims_checks;
mod particle_checks;
mod peer_checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

pub use counter_checks::{CounterRun, CounterWorkload, counter_runs};

use crate::error::{Error, Result};
use crate::testbed::Testbed;

/// One self-test check.
pub struct SelfTest {
    pub name: &'static str,
    pub run: fn(&Testbed) -> Result<()>,
}

/// Every check `ptxsuite selftest` runs, in order.
pub const SELF_TESTS: &[SelfTest] = &[
    SelfTest {
        name: "CUDA C twins (NVRTC)",
        run: checks::cuda_c_twins,
    },
    SelfTest {
        name: "OpenCL C twins (build on the matched device)",
        run: checks::opencl_c_twins,
    },
    SelfTest {
        name: "offset_copy (f16, f32, f64, f32x4)",
        run: checks::offset_copies,
    },
    SelfTest {
        name: "stride_copy (f16, f32, f64, f32x4)",
        run: checks::stride_copies,
    },
    SelfTest {
        name: "shift_copy",
        run: checks::shift_copy,
    },
    SelfTest {
        name: "texture_shift_copy",
        run: checks::texture_shift_copy,
    },
    SelfTest {
        name: "global_2d_tile_load, texture_2d_tile_sample (point, linear, normalized, wrap)",
        run: checks::texture_2d_tiles,
    },
    SelfTest {
        name: "permuted_copy",
        run: checks::permuted_copy,
    },
    SelfTest {
        name: "vector_copy",
        run: checks::vector_copy,
    },
    SelfTest {
        name: "cuMemcpyDtoDAsync (driver copy)",
        run: checks::driver_copy,
    },
    SelfTest {
        name: "cuda_std kernels (vecadd, block_sum) and their ptx-device twins",
        run: cuda_std_checks::compat_layer_kernels,
    },
    SelfTest {
        name: "matrix-vector, seven versions",
        run: checks::matvec_versions,
    },
    SelfTest {
        name: "cuBLAS SGEMV",
        run: checks::cublas_sgemv,
    },
    SelfTest {
        name: "guide matrix multiplies (C = AB, C = AAᵀ)",
        run: matmul_checks::guide_multiplies,
    },
    SelfTest {
        name: "general SGEMM (tiled, register-blocked, f16 storage)",
        run: matmul_checks::general_multiplies,
    },
    SelfTest {
        name: "register-blocked SGEMM on every tile (128 × 128, 128 × 64)",
        run: matmul_checks::register_blocked_tiles,
    },
    SelfTest {
        name: "cuBLAS SGEMM and GemmEx",
        run: matmul_checks::cublas_sgemm_checks,
    },
    SelfTest {
        name: "transfers: pageable",
        run: checks::pageable_transfers,
    },
    SelfTest {
        name: "transfers: pinned",
        run: checks::pinned_transfers,
    },
    SelfTest {
        name: "transfers: write-combined",
        run: checks::write_combined_transfers,
    },
    SelfTest {
        name: "transfers: mapped",
        run: checks::mapped_transfers,
    },
    SelfTest {
        name: "zero-copy kernels (mapped memory)",
        run: checks::zero_copy_kernels,
    },
    SelfTest {
        name: "streams: staged fma_chain pipeline",
        run: checks::staged_pipeline,
    },
    SelfTest {
        name: "OpenCL: ordinary and ALLOC_HOST_PTR transfers, fma_chain",
        run: checks::opencl_transfers_and_pipeline,
    },
    SelfTest {
        name: "instruction throughput kernels (26, small and large arguments)",
        run: execution_checks::throughput_kernels,
    },
    SelfTest {
        name: "math_function_values (fast and accurate, within their bounds)",
        run: execution_checks::function_values,
    },
    SelfTest {
        name: "divergence and predication kernels",
        run: execution_checks::control_flow,
    },
    SelfTest {
        name: "loop-counter kernels (i32, u32, usize, unchecked i32)",
        run: execution_checks::loop_counters,
    },
    SelfTest {
        name: "particles: fountain and swarm vs the CPU simulation",
        run: particle_checks::particle_kernels,
    },
    SelfTest {
        name: "particles: CUDA-OpenGL interop round trip",
        run: particle_checks::particle_interop,
    },
    SelfTest {
        name: "peer copies between every pair of GPUs (CE, SM pull and push)",
        run: peer_checks::peer_copies,
    },
    SelfTest {
        name: "kernel time limit (spin_wait)",
        run: checks::kernel_time_limit,
    },
    SelfTest {
        name: "shared-memory bank kernels (4-, 8-, 16-byte, tile column)",
        run: memory_claims_checks::bank_kernels,
    },
    SelfTest {
        name: "constant-memory chases (ld.const, ld.global.nc, shared)",
        run: memory_claims_checks::constant_chases,
    },
    SelfTest {
        name: "local-memory arrays (registers, dynamic index, spilled)",
        run: memory_claims_checks::local_arrays,
    },
    SelfTest {
        name: "latency chains (pointer chase, shared chase, FMA)",
        run: memory_claims_checks::latency_chains,
    },
    SelfTest {
        name: "occupancy kernels (guarded copy, per-thread chase)",
        run: memory_claims_checks::occupancy_kernels,
    },
    SelfTest {
        name: "hardware counters (CUPTI): stride_copy DRAM bytes, bank_read passes",
        run: counter_checks::hardware_counters,
    },
];

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    Failed,
    Waived,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "FAILED",
            Status::Waived => "waived",
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

/// Runs `tests` one after another; a failing or panicking check does not stop the others.
pub fn run_all(testbed: &Testbed, tests: &[SelfTest]) -> Vec<Outcome> {
    tests
        .iter()
        .map(|test| {
            let start = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| (test.run)(testbed)));
            let (status, detail) = match result {
                Ok(Ok(())) => (Status::Ok, format!("{:.0} ms", start.elapsed().as_secs_f64() * 1e3)),
                Ok(Err(Error::Waived(why))) => (Status::Waived, why),
                Ok(Err(error)) => (Status::Failed, error.to_string()),
                Err(panic) => (Status::Failed, format!("panicked: {}", panic_text(&panic))),
            };
            Outcome {
                name: test.name,
                status,
                detail,
            }
        })
        .collect()
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// The pass/fail table: name, status, detail; then a count line.
pub fn table(outcomes: &[Outcome]) -> String {
    let width = outcomes
        .iter()
        .map(|o| o.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!("{:<width$}  {:<7}  detail\n", "check", "status");
    for o in outcomes {
        out.push_str(&format!("{:<width$}  {:<7}  {}\n", o.name, o.status.label(), o.detail));
    }
    let count = |s: Status| outcomes.iter().filter(|o| o.status == s).count();
    out.push_str(&format!(
        "selftest: {} ok, {} FAILED, {} waived\n",
        count(Status::Ok),
        count(Status::Failed),
        count(Status::Waived)
    ));
    out
}
