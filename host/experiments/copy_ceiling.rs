//! The copy ceiling: the suite's best-practice Rust copy, its CUDA C twin
//! and the driver's `cuMemcpyDtoDAsync`, on the same buffers in the same run.

use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::copy_sweep::{SeriesSpec, SweepBuffers, measure};
use super::offset_stride::BYTE_COUNTING;
use super::{Experiment, RunSettings, SweepResult};
use crate::error::Result;
use crate::gpu::{Gpu, Implementation};
use crate::{launchers, reference};

pub(super) const CEILING: Experiment = Experiment {
    name: "ceiling",
    title: "Copy ceiling: vectorized grid-stride copy vs cuMemcpyDtoD",
    guide_section: "beyond the guide: the best a copy can do on this GPU",
    points: 1,
    run,
};

fn run(gpu: &Gpu, settings: &RunSettings, progress: &indicatif::ProgressBar) -> Result<SweepResult> {
    let (implementations, note) = gpu.kernel_implementations();
    let notes: Vec<String> = note.into_iter().collect();
    let SweepBuffers {
        input,
        idata,
        mut odata,
    } = SweepBuffers::<f32>::new(gpu, settings, 0)?;
    let all = |len: usize, _: i32| len as u64;
    let mut series: Vec<SeriesSpec<f32>> = implementations
        .iter()
        .map(|&imp| SeriesSpec {
            kernel: "vector_copy",
            implementation: imp,
            elements: all,
            launch: Box::new(move |o, i, n, _| launchers::vector_copy(gpu, imp, o, i, n)),
            reference: reference::copy_prefix,
        })
        .collect();
    series.push(SeriesSpec {
        kernel: "cuMemcpyDtoDAsync",
        implementation: Implementation::Driver,
        elements: all,
        launch: Box::new(move |o, i, n, _| launchers::driver_copy(o, i, n)),
        reference: reference::copy_prefix,
    });
    let mib = (idata.bytes() >> 20) as i32;
    let results = measure(
        gpu,
        settings,
        &[mib],
        None,
        &input,
        &idata,
        &mut odata,
        &series,
        progress,
    )?;
    Ok(SweepResult {
        experiment: CEILING.name.to_string(),
        title: CEILING.title.to_string(),
        guide_section: CEILING.guide_section.to_string(),
        parameter: "buffer MiB".to_string(),
        byte_counting: BYTE_COUNTING.to_string(),
        buffer_bytes: idata.bytes() as u64,
        block_threads: COPY_BLOCK_THREADS,
        series: results,
        notes,
    })
}
