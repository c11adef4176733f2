//! Streams of the four kinds the CUDA driver has, for the experiments on
//! how streams order work: cudarc's own streams are all non-blocking, which
//! never wait for the legacy default stream, so the guide's §3.1.2 rule
//! ("an operation in the default stream waits for every stream, and every
//! stream waits for it") needs streams created with the default flags.

use std::sync::Arc;

use cudarc::driver::{CudaStream, result, sys};

use super::Gpu;
use super::device_buffer::{DeviceBuffer, DeviceCopy};
use crate::error::{DriverResultExt, Result};

/// How a stream orders its work against the default streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamKind {
    /// `CU_STREAM_NON_BLOCKING`: never synchronizes with the legacy default stream.
    NonBlocking,
    /// `CU_STREAM_DEFAULT` flags: waits for, and is waited for by, the legacy default stream.
    Blocking,
    /// The NULL stream with its legacy semantics (`CU_STREAM_LEGACY`).
    LegacyDefault,
    /// The per-thread default stream (`CU_STREAM_PER_THREAD`, nvcc's `--default-stream per-thread`):
    /// an ordinary blocking stream of its own.
    PerThreadDefault,
}

impl StreamKind {
    pub fn label(self) -> &'static str {
        match self {
            Self::NonBlocking => "non-blocking stream",
            Self::Blocking => "blocking stream",
            Self::LegacyDefault => "legacy default stream",
            Self::PerThreadDefault => "per-thread default stream",
        }
    }
}

/// A stream of a chosen [`StreamKind`]; one this wrapper created is
/// synchronized and destroyed on drop.
pub struct KindedStream {
    kind: StreamKind,
    stream: Arc<CudaStream>,
    /// A `CU_STREAM_DEFAULT` stream created here (cudarc only wraps it).
    created: Option<sys::CUstream>,
}

impl KindedStream {
    pub fn new(gpu: &Gpu, kind: StreamKind) -> Result<Self> {
        let ctx = gpu.context();
        let (stream, created) = match kind {
            StreamKind::NonBlocking => (ctx.new_stream().during("cuStreamCreate")?, None),
            StreamKind::LegacyDefault => (ctx.default_stream(), None),
            StreamKind::PerThreadDefault => (ctx.per_thread_stream(), None),
            StreamKind::Blocking => {
                ctx.bind_to_thread().during("cuCtxSetCurrent")?;
                let raw = result::stream::create(result::stream::StreamKind::Default).during("cuStreamCreate")?;
                // SAFETY: `raw` is a live stream of this context; it is destroyed only in Drop, and the
                // wrapper never leaves this struct (callers get `&CudaStream`).
                (unsafe { ctx.wrap_borrowed_stream(raw) }, Some(raw))
            }
        };
        Ok(Self { kind, stream, created })
    }

    pub fn kind(&self) -> StreamKind {
        self.kind
    }

    pub fn stream(&self) -> &CudaStream {
        &self.stream
    }

    /// Makes this stream wait for the work enqueued so far on `other`.
    pub fn wait_for(&self, other: &CudaStream) -> Result<()> {
        self.stream.join(other).during("cuStreamWaitEvent")
    }

    /// Makes `main` wait for the work enqueued so far on this stream.
    pub fn join_into(&self, main: &CudaStream) -> Result<()> {
        main.join(&self.stream).during("cuStreamWaitEvent")
    }

    /// Enqueues a memset of `buffer`'s bytes to `value` on this stream (the
    /// one-call operation the guide puts in the default stream).
    pub fn fill_bytes<T: DeviceCopy>(&self, buffer: &mut DeviceBuffer<T>, value: u8) -> Result<()> {
        self.stream.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: writes exactly the allocation's bytes; the buffer outlives the wait its owner does.
        unsafe { result::memset_d8_async(buffer.device_ptr(), value, buffer.bytes(), self.stream.cu_stream()) }
            .during("cuMemsetD8Async")
    }
}

impl Drop for KindedStream {
    fn drop(&mut self) {
        if let Some(raw) = self.created.take() {
            // SAFETY: the stream was created in `new` and is destroyed once, after its work is done.
            unsafe {
                let _ = result::stream::synchronize(raw);
                let _ = result::stream::destroy(raw);
            }
        }
    }
}
