//! Timing several copies that run at the same time, on several streams of
//! one or more GPUs, as nvbandwidth does: a latch holds every stream until
//! all of them are enqueued (a short `spin_wait` on the first GPU, then an
//! event every stream waits for), and each stream's work sits between two
//! events of its own, which give the stream's own figure.
//!
//! The set's figure is **not** the sum of those (nvbandwidth's way): copies
//! that do not really overlap (one GPU's copy engine serving several streams
//! in turn) each run at full speed for their own time, and their sum exceeds
//! what the links can carry (4 H200: one GPU's engine "into all" summed to
//! 1167 GB/s over a 478 GB/s link). It is every stream's bytes over one span
//! on the latch GPU's clock: from the release to an event the latch stream
//! records once it has waited for every stream's end (events of different
//! GPUs cannot be compared, but a stream can wait for another GPU's event).
//! The span includes the wait's signalling, a few microseconds, so the
//! figure errs low, never high.

use std::sync::Arc;
use std::time::Duration;

use cudarc::driver::{CudaEvent, CudaStream, sys};

use crate::error::{DriverResultExt, Result};
use crate::launchers::spin_wait;
use crate::run_settings::RunSettings;
use crate::testbed::DeviceUnderTest;
use crate::timing::paced;

/// How long the latch holds the streams: long enough to enqueue every lane's work.
const LATCH: Duration = Duration::from_millis(2);

/// Enqueues one unit of a lane's work on the stream it is given.
pub type LaneWork<'a> = Box<dyn FnMut(&CudaStream) -> Result<()> + 'a>;

/// One stream's part of a concurrent measurement.
pub struct Lane<'a> {
    pub device: &'a DeviceUnderTest,
    pub stream: Arc<CudaStream>,
    /// Bytes one call of `enqueue` moves.
    pub bytes: u64,
    /// Enqueues one unit of work on `stream`.
    pub enqueue: LaneWork<'a>,
    start: CudaEvent,
    stop: CudaEvent,
}

impl<'a> Lane<'a> {
    pub fn new(
        device: &'a DeviceUnderTest,
        stream: Arc<CudaStream>,
        bytes: u64,
        enqueue: LaneWork<'a>,
    ) -> Result<Self> {
        let ctx = device.gpu().context();
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Self {
            device,
            stream,
            bytes,
            enqueue,
            start: ctx.new_event(timing).during("cuEventCreate")?,
            stop: ctx.new_event(timing).during("cuEventCreate")?,
        })
    }
}

/// What a concurrent measurement gives, one figure per sample.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConcurrentSamples {
    /// GB/s of every lane together: all their bytes over the span from the release to the last lane's end.
    pub total: Vec<f64>,
    /// GB/s of each lane, in the order of the lanes.
    pub lanes: Vec<Vec<f64>>,
}

/// GB/s of every lane, one figure per sample: up to `settings.reps` units of
/// work per lane between its events (fewer where one is long), all lanes
/// released at once by the latch on `latch`'s stream. A warm-up sample of one
/// unit per lane comes first.
pub fn concurrent_gbps(
    latch: &DeviceUnderTest,
    lanes: &mut [Lane<'_>],
    settings: &RunSettings,
) -> Result<ConcurrentSamples> {
    let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
    let released = latch.gpu().context().new_event(timing).during("cuEventCreate")?;
    let all_ended = latch.gpu().context().new_event(timing).during("cuEventCreate")?;
    let mut samples = ConcurrentSamples {
        total: Vec::with_capacity(settings.samples as usize),
        lanes: vec![Vec::with_capacity(settings.samples as usize); lanes.len()],
    };
    // The warm-up sample makes one unit of work per lane; its longest lane paces the rest
    // (up to `--reps` units per lane, fewer where one is long), as `timing::paced` does.
    let mut reps = 1u32;
    for sample in 0..=settings.samples {
        spin_wait(latch, LATCH)?;
        released.record(latch.gpu().stream()).during("cuEventRecord")?;
        for lane in lanes.iter_mut() {
            lane.stream.wait(&released).during("cuStreamWaitEvent")?;
            lane.start.record(&lane.stream).during("cuEventRecord")?;
            for _ in 0..reps {
                (lane.enqueue)(&lane.stream)?;
            }
            lane.stop.record(&lane.stream).during("cuEventRecord")?;
        }
        for lane in lanes.iter() {
            latch.gpu().stream().wait(&lane.stop).during("cuStreamWaitEvent")?;
        }
        all_ended.record(latch.gpu().stream()).during("cuEventRecord")?;
        let mut longest_ms = 0.0f64;
        let mut bytes = 0u64;
        for (index, lane) in lanes.iter().enumerate() {
            lane.device.gpu().wait_for_event(&lane.stop, "a concurrent copy")?;
            let ms = lane.start.elapsed_ms(&lane.stop).during("cuEventElapsedTime")? as f64;
            longest_ms = longest_ms.max(ms);
            bytes += lane.bytes * reps as u64;
            if sample > 0 {
                samples.lanes[index].push((lane.bytes * reps as u64) as f64 / 1e9 / (ms / 1e3));
            }
        }
        latch.gpu().wait_for_event(&all_ended, "the end of a concurrent set")?;
        let span_ms = released.elapsed_ms(&all_ended).during("cuEventElapsedTime")? as f64;
        if sample > 0 {
            samples.total.push(bytes as f64 / 1e9 / (span_ms / 1e3));
        } else {
            reps = paced(settings, longest_ms).reps;
        }
    }
    Ok(samples)
}
