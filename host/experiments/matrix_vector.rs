//! The OpenCL whitepaper's `MatrixVectorMul` walk (Listings 2–7, Table 1),
//! with the CUDA C twins, cuBLAS SGEMV and the copy ceiling for the same
//! bytes, all in one run.

use indicatif::ProgressBar;

use super::input_values::matrix_value;
use super::launch_timing::time_per_launch;
use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::copy_element::first_mismatch;
use crate::error::Result;
use crate::gpu::{CublasHandle, DeviceBuffer, EventTimer, Gpu, Implementation};
use crate::launchers::{MATVEC_BLOCK_THREADS, MatVecVersion, matvec, vector_copy};
use crate::reference;

pub(super) const MATVEC: Experiment = Experiment {
    name: "matvec",
    title: "Matrix-vector multiply: the OpenCL whitepaper's seven versions",
    guide_section: "\"OpenCL Programming for the CUDA Architecture\", Listings 2–7 and Table 1 (GTX 285)",
    points: 2,
    run,
};

/// The whitepaper's matrix.
pub const WHITEPAPER_SHAPE: (u32, u32) = (1100, 60989);
/// Width of the second shape, whose height is chosen so that `M` fills the run's buffer size.
const LARGE_WIDTH: u32 = 8192;

/// What one series launches: the version's kernel, cuBLAS, or the copy ceiling.
enum Launch {
    Kernel(MatVecVersion, Implementation),
    Cublas,
    CopyCeiling,
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let (implementations, note) = gpu.kernel_implementations();
    let mut notes: Vec<String> = note.into_iter().collect();
    let cublas = CublasHandle::new(gpu).map_err(|e| notes.push(e.to_string())).ok();
    let mut plan: Vec<(Launch, SeriesResult)> = Vec::new();
    let series = |name: String, kernel: &str, implementation| SeriesResult {
        name,
        kernel: kernel.to_string(),
        implementation,
        element: "f32".into(),
        element_bytes: 4,
        points: Vec::new(),
    };
    for version in MatVecVersion::ALL {
        for &imp in &implementations {
            let name = format!("{} · {}", version.label(), imp.label());
            plan.push((Launch::Kernel(version, imp), series(name, version.kernel(), imp)));
        }
    }
    if cublas.is_some() {
        plan.push((
            Launch::Cublas,
            series("cublasSgemv".into(), "cublasSgemv", Implementation::Cublas),
        ));
    }
    plan.push((
        Launch::CopyCeiling,
        series(
            "copy ceiling (vector_copy of M)".into(),
            "vector_copy",
            Implementation::Rust,
        ),
    ));

    let large_height = (settings.buffer_bytes(gpu.info()) / (LARGE_WIDTH as u64 * 4)).clamp(1, u32::MAX as u64) as u32;
    let shapes = [WHITEPAPER_SHAPE, (LARGE_WIDTH, large_height)];
    let theoretical = gpu.info().theoretical_bandwidth_gbps;
    let timer = EventTimer::new(gpu)?;
    for (done, (width, height)) in shapes.into_iter().enumerate() {
        if settings.stop.stop_before(done, shapes.len()) {
            break;
        }
        progress.set_message(format!("matvec {height} x {width}"));
        let elements = width as usize * height as usize;
        gpu.ensure_free_memory(2 * 4 * elements as u64)?;
        let m_host: Vec<f32> = (0..elements).map(|i| matrix_value(i, 0)).collect();
        let v_host: Vec<f32> = (0..width as usize).map(|x| matrix_value(x, 1)).collect();
        let (w_ref, scale) = reference::matvec(&m_host, width as usize, height as usize, &v_host);
        let m = DeviceBuffer::from_host(gpu, &m_host)?;
        let v = DeviceBuffer::from_host(gpu, &v_host)?;
        let mut w = DeviceBuffer::<f32>::uninit(gpu, height as usize)?;
        let mut m_copy = DeviceBuffer::<f32>::uninit(gpu, elements)?;

        for (launch, result) in &mut plan {
            w.fill(f32::NAN)?; // every row must be written by this series
            let times_ms = time_per_launch(gpu, &timer, settings, || match launch {
                Launch::Kernel(version, imp) => matvec(gpu, *imp, *version, &m, width, height, &v, &mut w),
                Launch::Cublas => cublas
                    .as_ref()
                    .expect("planned only with a handle")
                    .sgemv_row_major(&m, width, height, &v, &mut w),
                Launch::CopyCeiling => vector_copy(gpu, Implementation::Rust, &mut m_copy, &m, elements as u64),
            })?;
            let (bytes, failure) = match launch {
                Launch::CopyCeiling => (2 * 4 * elements as u64, first_mismatch(&m_copy.to_host()?, &m_host)),
                _ => {
                    let got = w.to_host()?;
                    (
                        4 * (elements + width as usize + height as usize) as u64,
                        reference::matvec_mismatch(&got, &w_ref, &scale),
                    )
                }
            };
            let point = SweepPoint::measured(height as i64, elements as u64, bytes, &times_ms, failure)
                .expect("samples >= 1 and event times are finite");
            result.points.push(point.with_peak(theoretical));
        }
        progress.inc(1);
    }
    notes.push(format!(
        "shapes (height x width): {} x {} (the whitepaper's) and {} x {} (M fills the run's buffer size); \
         {MATVEC_BLOCK_THREADS} threads per block; grid-stride versions launch one full wave of blocks; results \
         checked per row within {} of the row's sum of |m·v|",
        WHITEPAPER_SHAPE.1,
        WHITEPAPER_SHAPE.0,
        large_height,
        LARGE_WIDTH,
        reference::MATVEC_RELATIVE_TOLERANCE
    ));
    let sms = gpu.info().multiprocessors.max(1) as u32;
    for (_, height) in shapes {
        let blocks = height.div_ceil(MATVEC_BLOCK_THREADS);
        if blocks < sms {
            notes.push(format!(
                "height {height}: the one-row-per-thread versions (Listings 2 and 3) launch {blocks} blocks for {sms} \
                 SMs, so they run latency-bound on part of the GPU and small code-generation differences (Rust vs \
                 CUDA C) show more than where the GPU is full"
            ));
        }
    }
    Ok(SweepResult {
        experiment: MATVEC.name.to_string(),
        title: MATVEC.title.to_string(),
        guide_section: MATVEC.guide_section.to_string(),
        parameter: "height".to_string(),
        byte_counting: "M + V + W = (width x height + width + height) x 4 bytes per product, each read or written \
                        once; the copy ceiling counts 2 x 4 bytes per element of M (read + write)"
            .to_string(),
        buffer_bytes: settings.buffer_bytes(gpu.info()),
        block_threads: MATVEC_BLOCK_THREADS,
        series: plan.into_iter().map(|(_, s)| s).collect(),
        notes,
    })
}
