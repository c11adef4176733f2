//! What the criterion benchmarks share: the GPU (or a note that they were
//! skipped) and CUDA-event timing of `iters` back-to-back launches, which
//! `iter_custom` turns into criterion's per-iteration figures.

use std::time::Duration;

use ptxsuite::Result;
use ptxsuite::gpu::{EventTimer, Gpu};

/// GPU 0, or `None` after printing why the `suite` benchmarks are skipped.
pub fn gpu_or_skip(suite: &str) -> Option<Gpu> {
    match Gpu::open(0) {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            println!("{suite} benchmarks skipped: {e}");
            None
        }
    }
}

/// GPU time of `iters` launches of `launch` on the suite's stream, between two events.
pub fn gpu_time(gpu: &Gpu, timer: &EventTimer, iters: u64, mut launch: impl FnMut() -> Result<()>) -> Duration {
    let ms = timer
        .time_ms(gpu.stream(), || {
            for _ in 0..iters {
                launch()?;
            }
            Ok(())
        })
        .expect("timed launches");
    Duration::from_secs_f64(ms / 1e3)
}
