//! Guide §3.2.4.1 (Figure 3.12): shifted reads through global loads and
//! through the texture path, beside `offset_copy`.

use cudarc::driver::sys;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::copy_sweep::{SeriesSpec, SweepBuffers, measure, whole_blocks};
use super::offset_stride::BYTE_COUNTING;
use super::{Experiment, RunSettings, SweepResult, sector_model};
use crate::error::{DriverResultExt, Result};
use crate::gpu::{Gpu, Implementation, TextureObject};
use crate::{launchers, reference};

const SHIFTS: [i32; 33] = {
    let mut values = [0; 33];
    let mut i = 0;
    while i < 33 {
        values[i] = i as i32;
        i += 1;
    }
    values
};
const ROOM: usize = 32;

pub(super) const SHIFT: Experiment = Experiment {
    name: "shift",
    title: "Shifted reads: global loads vs texture fetches",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.2.4.1, Listings 3.12 and 3.13, Figure 3.12",
    points: SHIFTS.len() as u64,
    run,
};

fn run(gpu: &Gpu, settings: &RunSettings, progress: &indicatif::ProgressBar) -> Result<SweepResult> {
    let (implementations, note) = gpu.kernel_implementations();
    let mut notes: Vec<String> = note.into_iter().collect();
    // A 1-D linear texture has a hardware size limit (2^27 texels today): cap the buffer to it.
    let max_texels = gpu
        .context()
        .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH)
        .during("cuDeviceGetAttribute")? as u64;
    let mut capped = settings.clone();
    let wanted = settings.buffer_bytes(gpu.info());
    let limit = ((max_texels - ROOM as u64) * 4) >> 20 << 20;
    if wanted > limit {
        capped.buffer_mib = Some(limit >> 20);
        notes.push(format!(
            "buffers capped at {} MiB: a 1-D linear texture holds at most {max_texels} texels on this GPU",
            limit >> 20
        ));
    }
    let SweepBuffers {
        input,
        idata,
        mut odata,
    } = SweepBuffers::<f32>::new(gpu, &capped, ROOM)?;
    let threads = |len: usize, _shift: i32| whole_blocks(len - ROOM, 1);

    let mut series: Vec<SeriesSpec<f32>> = Vec::new();
    for &imp in &implementations {
        series.push(SeriesSpec {
            kernel: "shift_copy",
            implementation: imp,
            elements: threads,
            launch: Box::new(move |o, i, n, v| launchers::shift_copy(gpu, imp, o, i, n, v)),
            reference: reference::shift_copy,
        });
    }
    for &imp in &implementations {
        let texture = TextureObject::over(gpu, &idata)?;
        series.push(SeriesSpec {
            kernel: "texture_shift_copy",
            implementation: imp,
            elements: threads,
            launch: Box::new(move |o, _i, n, v| launchers::texture_shift_copy(gpu, imp, o, &texture, n, v)),
            reference: reference::texture_shift_copy,
        });
    }
    series.push(SeriesSpec {
        kernel: "offset_copy",
        implementation: Implementation::Rust,
        elements: threads,
        launch: Box::new(move |o, i, n, v| launchers::offset_copy(gpu, Implementation::Rust, o, i, n, v)),
        reference: reference::offset_copy,
    });
    let model = Some(sector_model::shift_copy_bytes as super::copy_sweep::SectorModel);
    let results = measure(
        gpu, &capped, &SHIFTS, model, &input, &idata, &mut odata, &series, progress,
    )?;
    Ok(SweepResult {
        experiment: SHIFT.name.to_string(),
        title: SHIFT.title.to_string(),
        guide_section: SHIFT.guide_section.to_string(),
        parameter: "shift".to_string(),
        byte_counting: BYTE_COUNTING.to_string(),
        buffer_bytes: idata.bytes() as u64,
        block_threads: COPY_BLOCK_THREADS,
        series: results,
        notes,
    })
}
