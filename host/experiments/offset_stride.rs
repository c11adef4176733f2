//! Guide §3.2.1.3–3.2.1.4: offset and stride copies, for the guide's `f32`
//! and for 2-, 8- and 16-byte elements.

use half::f16;
use indicatif::ProgressBar;
use kernels_gpu::device::F32x4;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::copy_sweep::{SectorModel, SeriesSpec, SweepBuffers, measure, whole_blocks};
use super::{Experiment, RunSettings, SeriesResult, SweepResult, sector_model};
use crate::copy_element::CopyElement;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::{launchers, reference};

/// Offsets 0..=32 and strides 1..=32, in elements.
const OFFSETS: [i32; 33] = range::<33>(0);
const STRIDES: [i32; 32] = range::<32>(1);
/// Room past the nominal size for the largest offset.
const OFFSET_ROOM: usize = 32;

const fn range<const N: usize>(first: i32) -> [i32; N] {
    let mut values = [0; N];
    let mut i = 0;
    while i < N {
        values[i] = first + i as i32;
        i += 1;
    }
    values
}

pub(crate) const BYTE_COUNTING: &str = "Br + Bw = one element read + one element written per element copied \
    (useful bytes only, as the guide counts: sectors fetched but unused lower the figure)";

/// The two access patterns of §3.2.1, swept over element widths.
#[derive(Clone, Copy)]
enum Access {
    /// `offset_copy`: offsets 0..=32.
    Offset,
    /// `stride_copy`: strides 1..=32.
    Stride,
}

/// One width's series (Rust and, where available, CUDA C) for `access`, and the buffer size.
fn width_series<T: CopyElement>(
    access: Access,
    gpu: &Gpu,
    settings: &RunSettings,
    progress: &ProgressBar,
) -> Result<(Vec<SeriesResult>, u64)> {
    let (implementations, _) = gpu.kernel_implementations();
    let room = match access {
        Access::Offset => OFFSET_ROOM,
        Access::Stride => 0,
    };
    let SweepBuffers {
        input,
        idata,
        mut odata,
    } = SweepBuffers::<T>::new(gpu, settings, room)?;
    let series: Vec<SeriesSpec<T>> = implementations
        .iter()
        .map(|&imp| match access {
            Access::Offset => SeriesSpec {
                kernel: T::OFFSET_KERNEL,
                implementation: imp,
                elements: |len, _| whole_blocks(len - OFFSET_ROOM, 1),
                launch: Box::new(move |o, i, n, v| launchers::offset_copy(gpu, imp, o, i, n, v)),
                reference: reference::offset_copy,
            },
            Access::Stride => SeriesSpec {
                kernel: T::STRIDE_KERNEL,
                implementation: imp,
                // One buffer size for every stride: threads fall as 1/stride, so even at
                // stride 32 the sectors touched exceed L2 at the default size (8 x L2).
                elements: |len, stride| whole_blocks(len, stride as usize),
                launch: Box::new(move |o, i, n, v| launchers::stride_copy(gpu, imp, o, i, n, v)),
                reference: reference::stride_copy,
            },
        })
        .collect();
    let (values, model): (&[i32], SectorModel) = match access {
        Access::Offset => (&OFFSETS, sector_model::offset_copy_bytes),
        Access::Stride => (&STRIDES, sector_model::stride_copy_bytes),
    };
    let results = measure(
        gpu,
        settings,
        values,
        Some(model),
        &input,
        &idata,
        &mut odata,
        &series,
        progress,
    )?;
    Ok((results, idata.bytes() as u64))
}

/// The series of all four widths (2, 4, 8, 16 bytes); the buffer size reported is the `f32` one.
fn all_widths(
    access: Access,
    gpu: &Gpu,
    settings: &RunSettings,
    progress: &ProgressBar,
) -> Result<(Vec<SeriesResult>, u64)> {
    let mut series = width_series::<f16>(access, gpu, settings, progress)?.0;
    let (f32_series, bytes) = width_series::<f32>(access, gpu, settings, progress)?;
    series.extend(f32_series);
    series.extend(width_series::<f64>(access, gpu, settings, progress)?.0);
    series.extend(width_series::<F32x4>(access, gpu, settings, progress)?.0);
    Ok((series, bytes))
}

fn sweep(
    experiment: &Experiment,
    parameter: &str,
    gpu: &Gpu,
    series: Vec<SeriesResult>,
    buffer_bytes: u64,
) -> SweepResult {
    SweepResult {
        experiment: experiment.name.to_string(),
        title: experiment.title.to_string(),
        guide_section: experiment.guide_section.to_string(),
        parameter: parameter.to_string(),
        byte_counting: BYTE_COUNTING.to_string(),
        buffer_bytes,
        block_threads: COPY_BLOCK_THREADS,
        series,
        notes: gpu.kernel_implementations().1.into_iter().collect(),
    }
}

pub(super) const OFFSET: Experiment = Experiment {
    name: "offset",
    title: "Misaligned access: offset copy",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.2.1.3, Listing 3.5, Figure 3.7",
    points: OFFSETS.len() as u64,
    run: |gpu, settings, progress| {
        let (series, bytes) = width_series::<f32>(Access::Offset, gpu, settings, progress)?;
        Ok(sweep(&OFFSET, "offset", gpu, series, bytes))
    },
};

pub(super) const STRIDE: Experiment = Experiment {
    name: "stride",
    title: "Strided access: stride copy",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.2.1.4, Listing 3.6, Figure 3.9",
    points: STRIDES.len() as u64,
    run: |gpu, settings, progress| {
        let (series, bytes) = width_series::<f32>(Access::Stride, gpu, settings, progress)?;
        Ok(sweep(&STRIDE, "stride", gpu, series, bytes))
    },
};

pub(super) const OFFSET_WIDTH: Experiment = Experiment {
    name: "offset-width",
    title: "Misaligned access by element width (2, 4, 8, 16 bytes)",
    guide_section: "Best Practices Guide §3.2.1.3 with the OpenCL guide's 4/8/16-byte words",
    points: 4 * OFFSETS.len() as u64,
    run: |gpu, settings, progress| {
        let (series, bytes) = all_widths(Access::Offset, gpu, settings, progress)?;
        Ok(sweep(&OFFSET_WIDTH, "offset (elements)", gpu, series, bytes))
    },
};

pub(super) const STRIDE_WIDTH: Experiment = Experiment {
    name: "stride-width",
    title: "Strided access by element width (2, 4, 8, 16 bytes)",
    guide_section: "Best Practices Guide §3.2.1.4 with the OpenCL guide's 4/8/16-byte words",
    points: 4 * STRIDES.len() as u64,
    run: |gpu, settings, progress| {
        let (series, bytes) = all_widths(Access::Stride, gpu, settings, progress)?;
        Ok(sweep(&STRIDE_WIDTH, "stride (elements)", gpu, series, bytes))
    },
};
