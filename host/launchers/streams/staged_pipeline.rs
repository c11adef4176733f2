//! The streams and events of Listing 3.3b on the CUDA context.

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
