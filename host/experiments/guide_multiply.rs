//! The guide's shared-memory matrix multiplies (§3.2.2.2–3.2.2.3, Tables 3.2
//! and 3.3): each kernel in Rust and as its CUDA C twin, with cuBLAS SGEMM
//! on the same product as the vendor's figure.

use indicatif::ProgressBar;
use kernels_gpu::shared_memory::TILE_DIM;

use super::input_values::matrix_value;
use super::launch_timing::time_per_launch;
use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::error::Result;
use crate::gpu::{CublasHandle, DeviceBuffer, EventTimer, Gpu, Implementation};
use crate::launchers::{GuideMultiply, guide_multiply};
use crate::reference;

pub(super) const MATMUL: Experiment = Experiment {
    name: "matmul",
    title: "Shared-memory matrix multiply: the guide's C = AB and C = AAᵀ kernels",
    guide_section: "CUDA C Best Practices Guide §3.2.2.2–3.2.2.3, Listings 3.7–3.11, Tables 3.2 and 3.3",
    points: 2,
    run,
};

/// Largest `M = N`: `C`'s `M × N` indices are `int` in the guide's kernels.
const MAX_SIDE: u64 = 46336;

/// `M = N`, a multiple of `TILE_DIM`, such that `C` (`M × N` floats) fills
/// about `buffer_bytes`: large enough to fill the GPU many times over.
pub fn guide_side(buffer_bytes: u64) -> u32 {
    let t = TILE_DIM as u64;
    let side = ((buffer_bytes / 4) as f64).sqrt() as u64;
    (side / t * t).clamp(t, MAX_SIDE) as u32
}

/// What one series launches.
#[derive(Clone, Copy)]
enum Launch {
    Kernel(GuideMultiply, Implementation),
    /// cuBLAS SGEMM on the product of the table (`AAᵀ` or not).
    Cublas {
        aat: bool,
    },
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let (implementations, note) = gpu.kernel_implementations();
    let mut notes: Vec<String> = note.into_iter().collect();
    let cublas = CublasHandle::new(gpu).map_err(|e| notes.push(e.to_string())).ok();
    let side = guide_side(settings.buffer_bytes(gpu.info()));
    let (m, n, k) = (side, side, TILE_DIM);
    let (mu, nu, ku) = (m as usize, n as usize, k as usize);
    gpu.ensure_free_memory(4 * (mu * ku + ku * nu + mu * nu) as u64)?;
    let a_host: Vec<f32> = (0..mu * ku).map(|i| matrix_value(i, 1)).collect();
    let b_host: Vec<f32> = (0..ku * nu).map(|i| matrix_value(i, 2)).collect();
    let a = DeviceBuffer::from_host(gpu, &a_host)?;
    let b = DeviceBuffer::from_host(gpu, &b_host)?;
    let mut c = DeviceBuffer::<f32>::uninit(gpu, mu * nu)?;
    let timer = EventTimer::new(gpu)?;
    let mut got = vec![0.0f32; mu * nu];
    let mut series = Vec::new();

    // Table 3.2 (C = AB), then Table 3.3 (C = AAᵀ): one reference each, computed once.
    for (done, aat) in [false, true].into_iter().enumerate() {
        if settings.stop.stop_before(done, 2) {
            break;
        }
        progress.set_message(format!("matmul reference {m} x {n}{}", if aat { " (AAᵀ)" } else { "" }));
        let (expected, scale) = if aat {
            reference::matmul_aat(&a_host, mu, ku)
        } else {
            reference::matmul(&a_host, &b_host, mu, ku, nu)
        };
        let mut plan: Vec<Launch> = GuideMultiply::ALL
            .into_iter()
            .filter(|kernel| kernel.is_aat() == aat)
            .flat_map(|kernel| implementations.iter().map(move |&imp| Launch::Kernel(kernel, imp)))
            .collect();
        if cublas.is_some() {
            plan.push(Launch::Cublas { aat });
        }
        for launch in plan {
            let (name, kernel_name, implementation, shape_kernel) = match launch {
                Launch::Kernel(kernel, imp) => (
                    format!("{} · {}", kernel.kernel(), imp.label()),
                    kernel.kernel().to_string(),
                    imp,
                    kernel,
                ),
                Launch::Cublas { aat } => {
                    let (label, like) = if aat {
                        ("cublasSgemm (A·Aᵀ)", GuideMultiply::SimpleAat)
                    } else {
                        ("cublasSgemm (A·B)", GuideMultiply::Simple)
                    };
                    (label.to_string(), label.to_string(), Implementation::Cublas, like)
                }
            };
            progress.set_message(format!("matmul {name}"));
            c.fill(f32::NAN)?; // every element must be written by this series
            let times_ms =
                time_per_launch(gpu, &timer, settings, || match launch {
                    Launch::Kernel(kernel, imp) => guide_multiply(gpu, imp, kernel, &a, &b, &mut c, m, n),
                    Launch::Cublas { aat: true } => cublas
                        .as_ref()
                        .expect("planned with a handle")
                        .sgemm_aat_row_major(&a, &mut c, (m, k)),
                    Launch::Cublas { aat: false } => {
                        cublas
                            .as_ref()
                            .expect("planned with a handle")
                            .sgemm_row_major(&a, &b, &mut c, (m, n, k))
                    }
                })?;
            c.copy_to_host(&mut got)?;
            let columns = if aat { mu } else { nu };
            let failure = reference::matmul_mismatch(&got, &expected, &scale, ku, columns);
            let point = SweepPoint::measured(
                side as i64,
                got.len() as u64,
                shape_kernel.compulsory_bytes(m, n),
                &times_ms,
                failure,
            )
            .expect("samples >= 1 and event times are finite")
            .with_flops(shape_kernel.flops(m, n))
            .with_peak(gpu.info().theoretical_bandwidth_gbps);
            series.push(SeriesResult {
                name,
                kernel: kernel_name,
                implementation,
                element: "f32".into(),
                element_bytes: 4,
                points: vec![point],
            });
        }
        progress.inc(1);
    }
    notes.push(format!(
        "M = N = {side} (C fills the run's buffer size; --size-mib changes it), K = TILE_DIM = {TILE_DIM}; blocks of \
         {TILE_DIM} x {TILE_DIM} threads, one per {TILE_DIM} x {TILE_DIM} tile of C; A ({:.1} MiB) and B are small \
         enough to stay in L2, so the kernels are bound by writing C and by on-chip traffic, as on the guide's GPUs \
         (whose caches did not hold A)",
        (mu * ku * 4) as f64 / (1 << 20) as f64
    ));
    notes.push(format!(
        "every element of C checked against an f64 CPU reference within γ_K·Σ|a·b| (γ_{TILE_DIM} = {:.2e}: the \
         worst-case f32 dot-product error in any order)",
        reference::gemm_error_bound(ku)
    ));
    Ok(SweepResult {
        experiment: MATMUL.name.to_string(),
        title: MATMUL.title.to_string(),
        guide_section: MATMUL.guide_section.to_string(),
        parameter: "M = N".to_string(),
        byte_counting: "compulsory bytes: A (and B) read once and C written once, (M·K + K·N + M·N) × 4 for C = AB \
                        and (M·K + M·M) × 4 for C = AAᵀ; the guide does not state its count, and any fixed count \
                        gives the same speedups. GFLOP/s counts 2·K operations per element of C"
            .to_string(),
        buffer_bytes: (mu * nu * 4) as u64,
        block_threads: TILE_DIM * TILE_DIM,
        series,
        notes,
    })
}
