//! The streams and events of Listing 3.3b on the CUDA context.
//!
//! Where it stands against the guide's model (transfer alone + kernel alone /
//! nStreams; issue #29 goal 2): the runner times each run alone, from an idle
//! GPU, its start event held behind a 1 ms spin so that the whole run is
//! queued before it fires ([`CudaStagedRunner`](super::CudaStagedRunner)),
//! as the OpenCL twin times its runs (a `clFinish` after each); the transfer
//! and the kernel alone, the model's inputs, are timed the same way. On an
//! H100 (2026-11-26, `docs/measured/h100-2026-11-26/streams-matvec` and its
//! repeat) that gave 0.990–1.019 and 0.993–1.005 of the model at 1–16
//! streams in Listing 3.3b's order (at most 1.030 and 1.022 with each upload
//! after the previous one, then on its chunk's stream); at 16 streams 5.307 ms
//! against the OpenCL twin's 5.255 in the first run (the CUDA spread reaching
//! below OpenCL's), 5.162 against 5.245 in the repeat, and the CUDA pipeline
//! faster at every count below 14 in both. With the chained uploads on one
//! upload stream (`streams-upload-stream` and its repeat, another H100, the
//! same day): at most 1.018 and 1.019 of the model chained, 1.021 and 1.021
//! as listed; at 16 streams 5.176 and 5.160 ms as listed against OpenCL's
//! 5.259 and 5.269, and the CUDA pipeline faster than OpenCL's at every count
//! in both runs (at most 0.985 and 0.984 of its time).
//!
//! Timed as before, ten fenced runs queued back to back between two events,
//! the same pipeline took 1.13–1.14 of the model at 16 streams in the same
//! call (1.21 in the chained order). `gpu-checks/staged_timeline.cu` shows
//! where that goes: five runs queued at once took 5.45, 5.44, 5.38, 5.35 and
//! 5.30 ms, one run from idle 5.28; the runs queued first, while the host is
//! still enqueuing the later ones, are the slow ones (the mechanism is not
//! established further). Ruled out before
//! (`docs/measured/h100-2026-11-26/staged-timeline.txt`): the chunked uploads
//! alone (1% over one upload) and kernels alone (2.4%); the issue order (all
//! uploads first: the same); the hardware connections
//! (`CUDA_DEVICE_MAX_CONNECTIONS=32`: 1.127 against 1.136 at 16). What is
//! left at 16 streams is the uploads' own slowdown beside the kernels: 16
//! chunk uploads ran at 52.7 GB/s during a full-wave kernel against 54.5
//! alone on one H100 (54.9 and 54.8 on another), and the copy engine serves
//! the uploads in the order 0, 4, 8, 12, 1, 5, … (16 streams over 8 hardware
//! queues: stream i + 8 starts only when stream i's kernel has ended).

use std::sync::Arc;

use cudarc::driver::{CudaEvent, CudaStream, sys};

use super::{UploadOrder, chunk_ranges, fma_chain};
use crate::error::{DriverResultExt, Result};
use crate::gpu::{DeviceBuffer, Gpu, PinnedBuffer};
use crate::testbed::DeviceUnderTest;

/// The streams of Listing 3.3b and the events that fence one pipeline run,
/// all created once, outside every timed region.
pub struct StagedPipeline {
    streams: Vec<Arc<CudaStream>>,
    /// [`UploadOrder::Chained`]: every chunk's upload, in order, on this one
    /// stream: the copy engine gets them as one in-order queue, with no
    /// cross-stream waits between uploads and no kernel ahead of any upload.
    /// With each upload on its chunk's stream instead, after the previous
    /// upload's event, the series ran up to 1.030–1.035 of the model at 14–16
    /// streams in two of three runs on an H100 (2026-11-26); with this stream,
    /// at most 1.018 and 1.019 in two runs (`streams-upload-stream` and its
    /// repeat). Which queueing cost the other order its 1–2% is not
    /// established (16 streams share 8 hardware queues, so an upload there
    /// can sit behind an earlier chunk's kernel).
    uploads: Arc<CudaStream>,
    start: CudaEvent,
    done: Vec<CudaEvent>,
    /// One per chunk: its upload is complete ([`UploadOrder::Chained`]).
    uploaded: Vec<CudaEvent>,
}

impl StagedPipeline {
    pub fn new(gpu: &Gpu, streams: u32) -> Result<Self> {
        let ctx = gpu.context();
        let no_timing = Some(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING);
        Ok(Self {
            streams: (0..streams)
                .map(|_| ctx.new_stream().during("cuStreamCreate"))
                .collect::<Result<_>>()?,
            uploads: ctx.new_stream().during("cuStreamCreate")?,
            start: ctx.new_event(no_timing).during("cuEventCreate")?,
            done: (0..streams)
                .map(|_| ctx.new_event(no_timing).during("cuEventCreate"))
                .collect::<Result<_>>()?,
            uploaded: (0..streams)
                .map(|_| ctx.new_event(no_timing).during("cuEventCreate"))
                .collect::<Result<_>>()?,
        })
    }

    /// Enqueues the staged pipeline once over `n` streams, its uploads in
    /// `order`, fenced by the device's stream: every chunk waits for what
    /// came before on it, and it waits for every chunk, so consecutive runs
    /// never overlap. [`UploadOrder::AsListed`]: each chunk's upload and
    /// kernel on its stream (Listing 3.3b); [`UploadOrder::Chained`]: the
    /// uploads one after another on the upload stream, each chunk's kernel on
    /// its stream after its upload's event (the last kernel waits for the
    /// last upload, so the fence covers the upload stream too).
    pub fn enqueue(
        &self,
        dut: &DeviceUnderTest,
        host: &PinnedBuffer<f32>,
        data: &mut DeviceBuffer<f32>,
        (n, order): (u32, UploadOrder),
        iterations: u32,
    ) -> Result<()> {
        let main = dut.gpu().stream();
        let n = (n as usize).clamp(1, self.streams.len());
        self.start.record(main).during("cuEventRecord")?;
        let chained = order == UploadOrder::Chained;
        for stream in &self.streams[..n] {
            stream.wait(&self.start).during("cuStreamWaitEvent")?;
        }
        if chained {
            self.uploads.wait(&self.start).during("cuStreamWaitEvent")?;
        }
        for (i, chunk) in chunk_ranges(data.len(), n as u32, 256).into_iter().enumerate() {
            let stream = &self.streams[i];
            if chained {
                // SAFETY: neither buffer is touched by the host until the caller waits for the device's
                // stream, which waits for every chunk's kernel, and each kernel for its chunk's upload.
                unsafe { host.upload_async(chunk.clone(), data, &self.uploads)? };
                self.uploaded[i].record(&self.uploads).during("cuEventRecord")?;
                stream.wait(&self.uploaded[i]).during("cuStreamWaitEvent")?;
            } else {
                // SAFETY: as above; here each upload is on its chunk's stream, before its kernel.
                unsafe { host.upload_async(chunk.clone(), data, stream)? };
            }
            fma_chain(dut, stream, data, chunk, iterations)?;
        }
        for (stream, done) in self.streams[..n].iter().zip(&self.done) {
            done.record(stream).during("cuEventRecord")?;
            main.wait(done).during("cuStreamWaitEvent")?;
        }
        Ok(())
    }
}
