//! General matrix multiply past the guide: the OpenCL guide's tiled kernel,
//! a register-blocked SGEMM and its f16-storage variant, in Rust and CUDA C,
//! against cuBLAS on square products from 1024³ to 8192³.

use half::f16;
use indicatif::ProgressBar;

use super::input_values::matrix_value;
use super::launch_timing::time_per_launch;
use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::error::Result;
use crate::gpu::{CublasHandle, DeviceBuffer, EventTimer, Gpu, Implementation};
use crate::launchers::{self, SgemmKernel, gemm_flops, hgemm_f16_storage, sgemm};
use crate::reference;

pub(super) const SGEMM: Experiment = Experiment {
    name: "sgemm",
    title: "General matrix multiply: tiled and register-blocked SGEMM against cuBLAS",
    guide_section: "OpenCL Programming Guide §2.5 (tiled C = AB) taken to a register-blocked SGEMM; cuBLAS as the \
                    vendor baseline",
    points: SIZES.len() as u64,
    run,
};

/// Square sizes `m = n = k`: the 1024³–8192³, and 4095³, where no
/// row is 16-byte aligned and every tile has an edge (the kernels' slow paths).
pub const SIZES: [u32; 5] = [1024, 2048, 4095, 4096, 8192];

/// Elements of `C` checked against the f64 CPU reference at every point (corners, edges, spread).
const SAMPLED_ELEMENTS: usize = 512;

/// GPU time aimed at per sample: slow kernels at large sizes get fewer launches per sample.
const SAMPLE_BUDGET_MS: f64 = 50.0;

/// What one series launches.
#[derive(Clone, Copy)]
enum Launch {
    Sgemm(SgemmKernel, Implementation),
    F16Storage(Implementation),
    Cublas,
    CublasF16Storage,
}

impl Launch {
    fn series(self) -> SeriesResult {
        let (name, kernel, implementation, element, bytes) = match self {
            Self::Sgemm(k, imp) => (format!("{} · {}", k.kernel(), imp.label()), k.kernel(), imp, "f32", 4),
            Self::F16Storage(imp) => (
                format!("hgemm_f16_storage · {}", imp.label()),
                "hgemm_f16_storage",
                imp,
                "f16",
                2,
            ),
            Self::Cublas => ("cublasSgemm".into(), "cublasSgemm", Implementation::Cublas, "f32", 4),
            Self::CublasF16Storage => (
                "cublasGemmEx (f16 storage, 32F pedantic)".into(),
                "cublasGemmEx_f16",
                Implementation::Cublas,
                "f16",
                2,
            ),
        };
        SeriesResult {
            name,
            kernel: kernel.into(),
            implementation,
            element: element.into(),
            element_bytes: bytes,
            points: Vec::new(),
        }
    }

    fn f16_inputs(self) -> bool {
        matches!(self, Self::F16Storage(_) | Self::CublasF16Storage)
    }
}

/// The positions of `C` checked on the CPU: the four corners, then a spread.
fn sampled_positions(m: usize, n: usize) -> Vec<(usize, usize)> {
    let mut positions = vec![(0, 0), (0, n - 1), (m - 1, 0), (m - 1, n - 1)];
    positions.extend((0..SAMPLED_ELEMENTS).map(|i| ((i * 7919 + 13) % m, (i * 104_729 + 7) % n)));
    positions
}

/// Inputs and references of one size.
struct Operands {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    a16: DeviceBuffer<f16>,
    b16: DeviceBuffer<f16>,
    /// The f16-rounded inputs on the host (for the CPU reference of the f16 series).
    a16_host: Vec<f32>,
    b16_host: Vec<f32>,
    a_host: Vec<f32>,
    b_host: Vec<f32>,
}

fn operands(gpu: &Gpu, m: usize, n: usize, k: usize) -> Result<Operands> {
    let a_host: Vec<f32> = (0..m * k).map(|i| matrix_value(i, 3)).collect();
    let b_host: Vec<f32> = (0..k * n).map(|i| matrix_value(i, 4)).collect();
    let round = |x: &f32| f16::from_f32(*x);
    let a16: Vec<f16> = a_host.iter().map(round).collect();
    let b16: Vec<f16> = b_host.iter().map(round).collect();
    Ok(Operands {
        a: DeviceBuffer::from_host(gpu, &a_host)?,
        b: DeviceBuffer::from_host(gpu, &b_host)?,
        a16: DeviceBuffer::from_host(gpu, &a16)?,
        b16: DeviceBuffer::from_host(gpu, &b16)?,
        a16_host: a16.iter().map(|h| h.to_f32()).collect(),
        b16_host: b16.iter().map(|h| h.to_f32()).collect(),
        a_host,
        b_host,
    })
}

/// The first sampled element of `got` (row-major `m × n`) outside γ_k·Σ|a·b| of the f64 reference.
fn sampled_mismatch(got: &[f32], a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Option<String> {
    let bound = reference::gemm_error_bound(k);
    sampled_positions(m, n).into_iter().find_map(|(row, col)| {
        let (expected, scale) = reference::matmul_element(a, b, (k, n), row, col);
        let g = got[row * n + col];
        let error = (g as f64 - expected as f64).abs();
        (error.is_nan() || error > bound * scale + 1e-30).then(|| {
            format!(
                "C[{row}][{col}] is {g} but the CPU reference says {expected} (error {error:.3e} > {:.3e})",
                bound * scale
            )
        })
    })
}

/// `(C, |A|·|B|)` computed by cuBLAS: every element of a kernel's result is
/// compared with them (both results lie within γ_k·Σ|a·b| of the exact product).
fn cublas_reference(
    cublas: &CublasHandle,
    gpu: &Gpu,
    (a_host, b_host): (&[f32], &[f32]),
    dims: (u32, u32, u32),
) -> Result<(Vec<f32>, Vec<f32>)> {
    let abs = |x: &[f32]| x.iter().map(|v| v.abs()).collect::<Vec<f32>>();
    let mut c = DeviceBuffer::<f32>::uninit(gpu, dims.0 as usize * dims.1 as usize)?;
    let (a, b) = (
        DeviceBuffer::from_host(gpu, a_host)?,
        DeviceBuffer::from_host(gpu, b_host)?,
    );
    cublas.sgemm_row_major(&a, &b, &mut c, dims)?;
    let product = c.to_host()?;
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &abs(a_host))?,
        DeviceBuffer::from_host(gpu, &abs(b_host))?,
    );
    cublas.sgemm_row_major(&a, &b, &mut c, dims)?;
    Ok((product, c.to_host()?))
}

/// The first element of `got` farther from cuBLAS's result than two error bounds.
fn full_mismatch(got: &[f32], (expected, scale): &(Vec<f32>, Vec<f32>), n: usize, k: usize) -> Option<String> {
    let gamma = reference::gemm_error_bound(k);
    got.iter()
        .zip(expected)
        .zip(scale)
        .enumerate()
        .find_map(|(i, ((g, e), s))| {
            // Each result is within γ·Σ|a·b| of the exact product; the f32 |A|·|B| is within γ of Σ|a·b|.
            let bound = 2.0 * gamma * *s as f64 * (1.0 + 2.0 * gamma) + 1e-30;
            let error = (*g as f64 - *e as f64).abs();
            (error.is_nan() || error > bound).then(|| {
                format!(
                    "C[{}][{}] is {g} but cuBLAS gives {e} (error {error:.3e} > {bound:.3e})",
                    i / n,
                    i % n
                )
            })
        })
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let (implementations, note) = gpu.kernel_implementations();
    let mut notes: Vec<String> = note.into_iter().collect();
    let cublas = CublasHandle::new(gpu).map_err(|e| notes.push(e.to_string())).ok();
    let mut plan: Vec<(Launch, SeriesResult)> = Vec::new();
    for kernel in SgemmKernel::ALL {
        for &imp in &implementations {
            plan.push((Launch::Sgemm(kernel, imp), Launch::Sgemm(kernel, imp).series()));
        }
    }
    for &imp in &implementations {
        plan.push((Launch::F16Storage(imp), Launch::F16Storage(imp).series()));
    }
    if cublas.is_some() {
        plan.push((Launch::Cublas, Launch::Cublas.series()));
        plan.push((Launch::CublasF16Storage, Launch::CublasF16Storage.series()));
    }
    let timer = EventTimer::new(gpu)?;
    let mut unsupported: Vec<String> = Vec::new();
    for (done, &size) in SIZES.iter().enumerate() {
        if settings.stop.stop_before(done, SIZES.len()) {
            break;
        }
        let (m, n, k) = (size, size, size);
        let (mu, nu, ku) = (m as usize, n as usize, k as usize);
        progress.set_message(format!("sgemm {size}³ inputs"));
        gpu.ensure_free_memory((4 * (mu * ku + ku * nu + mu * nu) + 2 * (mu * ku + ku * nu)) as u64)?;
        let ops = operands(gpu, mu, nu, ku)?;
        let mut c = DeviceBuffer::<f32>::uninit(gpu, mu * nu)?;
        let mut got = vec![0.0f32; mu * nu];
        // Full references from cuBLAS (f32 inputs, f16-rounded inputs), where cuBLAS is there.
        let full = match &cublas {
            Some(cublas) => {
                progress.set_message(format!("sgemm {size}³ references"));
                Some((
                    cublas_reference(cublas, gpu, (&ops.a_host, &ops.b_host), (m, n, k))?,
                    cublas_reference(cublas, gpu, (&ops.a16_host, &ops.b16_host), (m, n, k))?,
                ))
            }
            None => None,
        };
        for (launch, result) in &mut plan {
            progress.set_message(format!("sgemm {size}³ {}", result.name));
            let dims = (m, n, k);
            let enqueue = |c: &mut DeviceBuffer<f32>| match *launch {
                Launch::Sgemm(kernel, imp) => sgemm(gpu, imp, kernel, &ops.a, &ops.b, c, dims),
                Launch::F16Storage(imp) => hgemm_f16_storage(gpu, imp, &ops.a16, &ops.b16, c, dims),
                Launch::Cublas => cublas
                    .as_ref()
                    .expect("planned with a handle")
                    .sgemm_row_major(&ops.a, &ops.b, c, dims),
                Launch::CublasF16Storage => cublas
                    .as_ref()
                    .expect("planned with a handle")
                    .gemm_f16_storage_row_major(&ops.a16, &ops.b16, c, dims),
            };
            c.fill(f32::NAN)?; // every element must be written by this series
            // Fewer launches per sample where one launch is long (50 ms of GPU time per sample at most).
            let one_ms = match timer.time_ms(gpu.stream(), || enqueue(&mut c)) {
                Ok(ms) => ms,
                Err(e) if matches!(launch, Launch::CublasF16Storage) => {
                    unsupported.push(format!("{}: {e}", result.name));
                    continue;
                }
                Err(e) => return Err(e),
            };
            let reps = ((SAMPLE_BUDGET_MS / one_ms.max(1e-3)).ceil() as u32).clamp(1, settings.reps);
            let paced = RunSettings {
                reps,
                ..settings.clone()
            };
            let times_ms = time_per_launch(gpu, &timer, &paced, || enqueue(&mut c))?;
            c.copy_to_host(&mut got)?;
            let (a, b) = if launch.f16_inputs() {
                (&ops.a16_host, &ops.b16_host)
            } else {
                (&ops.a_host, &ops.b_host)
            };
            let failure = sampled_mismatch(&got, a, b, (mu, nu, ku)).or_else(|| {
                let (f32_inputs, f16_inputs) = full.as_ref()?;
                let reference = if launch.f16_inputs() { f16_inputs } else { f32_inputs };
                full_mismatch(&got, reference, nu, ku)
            });
            let bytes = result.element_bytes as u64 * (mu * ku + ku * nu) as u64 + 4 * (mu * nu) as u64;
            let point = SweepPoint::measured(size as i64, (mu * nu) as u64, bytes, &times_ms, failure)
                .expect("samples >= 1 and event times are finite")
                .with_flops(gemm_flops(dims))
                .with_peak(gpu.info().theoretical_bandwidth_gbps);
            result.points.push(point);
        }
        progress.inc(1);
    }
    unsupported.dedup();
    notes.extend(unsupported.into_iter().map(|u| format!("skipped: {u}")));
    notes.push(format!(
        "square products m = n = k; results checked at {} elements of C per point (corners and a spread) against an \
         f64 CPU reference within γ_k·Σ|a·b| (γ_8192 = {:.2e}), and, with cuBLAS, every element against cuBLAS's \
         product within 2γ_k·(|A|·|B|); the f16 series against references of the f16-rounded inputs; up to {} launches per sample, fewer where one launch takes long ({SAMPLE_BUDGET_MS} ms \
         of GPU time per sample); cuBLAS in its default FP32 math mode (no tensor cores)",
        SAMPLED_ELEMENTS + 4,
        reference::gemm_error_bound(8192),
        settings.reps
    ));
    let (whole, guarded): (Vec<u32>, Vec<u32>) = SIZES
        .iter()
        .partition(|&&s| launchers::whole_register_blocked_tiles((s, s, s)));
    notes.push(format!(
        "register-blocked and f16-storage kernels: sizes made of whole 128 × 128 × 8 tiles ({whole:?}) run the          unguarded `_whole_tiles` entries, the others ({guarded:?}) the guarded ones"
    ));
    Ok(SweepResult {
        experiment: SGEMM.name.to_string(),
        title: SGEMM.title.to_string(),
        guide_section: SGEMM.guide_section.to_string(),
        parameter: "m = n = k".to_string(),
        byte_counting: "compulsory bytes: A and B read once (4 or 2 bytes per element) and C written once (4 bytes); \
                        GFLOP/s counts 2·m·n·k operations per product"
            .to_string(),
        buffer_bytes: 4 * 8192 * 8192,
        block_threads: kernels_gpu::matrix_multiply::SGEMM_THREADS,
        series: plan.into_iter().map(|(_, s)| s).collect(),
        notes,
    })
}
