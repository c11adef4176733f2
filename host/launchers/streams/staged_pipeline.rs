//! The streams and events of Listing 3.3b on the CUDA context.
//!
//! Where it stands against the guide's model (transfer alone + kernel alone /
//! nStreams; issue #29 goal 2, not met): on an H100 it rises from 1.00 at one
//! stream to 1.09–1.14 at 16, about 30–40 µs a chunk, while the OpenCL twin
//! stays within 1.02. What is ruled out (`gpu-checks/staged_timeline.cu`,
//! `gpu-checks/streams_timeline.sh`, runs in
//! `docs/measured/h100-2026-11-26/staged-timeline.txt`): the chunked uploads
//! alone (1% over one upload) and kernels alone (2.4%); the kernels slowing
//! the uploads (54.9 GB/s during a full-wave kernel, 54.8 alone); the issue
//! order (all uploads first: the same); the hardware connections
//! (`CUDA_DEVICE_MAX_CONNECTIONS=32`: 1.127 against 1.136 at 16). One run
//! traced with events took 1.02 of the model; the timed loop of fenced runs
//! 1.09, so the loss lies between runs or in the fences. In that trace the
//! copy engine served the uploads in the order 0, 4, 8, 12, 1, 5, … and
//! stream i + 8 started only when stream i's kernel ended (16 streams over 8
//! hardware queues).

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
    start: CudaEvent,
    done: Vec<CudaEvent>,
    /// One per stream: its chunk's upload is complete ([`UploadOrder::Chained`]).
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
    /// never overlap.
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
        for stream in &self.streams[..n] {
            stream.wait(&self.start).during("cuStreamWaitEvent")?;
        }
        for (i, chunk) in chunk_ranges(data.len(), n as u32, 256).into_iter().enumerate() {
            let stream = &self.streams[i];
            let chained = order == UploadOrder::Chained;
            if chained && i > 0 {
                stream.wait(&self.uploaded[i - 1]).during("cuStreamWaitEvent")?;
            }
            // SAFETY: neither buffer is touched by the host until the caller waits for the device's stream,
            // which waits for every chunk below.
            unsafe { host.upload_async(chunk.clone(), data, stream)? };
            if chained {
                self.uploaded[i].record(stream).during("cuEventRecord")?;
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
