//! The timing protocol every compute experiment shares (NVIDIA's transpose
//! sample's): one warm-up launch, then `samples` samples of `reps` launches
//! between two CUDA events; per-launch milliseconds per sample.

use super::RunSettings;
use crate::error::Result;
use crate::gpu::{EventTimer, Gpu};

/// Milliseconds per launch of `enqueue`, one figure per sample.
pub(crate) fn time_per_launch(
    gpu: &Gpu,
    timer: &EventTimer,
    settings: &RunSettings,
    mut enqueue: impl FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    enqueue()?; // warm-up: module, caches, clocks
    gpu.synchronize()?;
    let mut times_ms = Vec::with_capacity(settings.samples as usize);
    for _ in 0..settings.samples {
        let ms = timer.time_ms(gpu.stream(), || {
            for _ in 0..settings.reps {
                enqueue()?;
            }
            Ok(())
        })?;
        times_ms.push(ms / settings.reps as f64);
    }
    Ok(times_ms)
}
