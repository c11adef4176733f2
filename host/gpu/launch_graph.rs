//! A CUDA graph of launches captured from the suite's stream, replayed as one
//! launch: how work made of many short kernels (a particle step of a few
//! microseconds) is timed without the host's launch rate deciding the figure.

use cudarc::driver::{CudaGraph, sys};

use super::Gpu;
use crate::error::{DriverResultExt, Error, Result};

/// Launches captured once (`cuStreamBeginCapture` … `cuStreamEndCapture`,
/// instantiated), replayed with [`LaunchGraph::launch`] on the suite's stream.
pub struct LaunchGraph {
    graph: CudaGraph,
    launches: u32,
}

impl LaunchGraph {
    /// Captures what `enqueue` issues on `gpu`'s stream, `launches` calls of
    /// it (each given its index). Nothing runs while capturing; a failure
    /// ends the capture before it is returned.
    pub fn capture(gpu: &Gpu, launches: u32, enqueue: &mut dyn FnMut(u32) -> Result<()>) -> Result<Self> {
        let stream = gpu.stream();
        stream
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
            .during("cuStreamBeginCapture")?;
        let issued = (0..launches).try_for_each(&mut *enqueue);
        let ended = stream
            .end_capture(sys::CUgraphInstantiate_flags(0))
            .during("cuStreamEndCapture");
        issued?;
        let graph = ended?.ok_or_else(|| Error::InvalidInput("the captured graph is empty".into()))?;
        graph.upload().during("cuGraphUpload")?;
        Ok(Self { graph, launches })
    }

    /// Replays the captured launches on the stream they were captured from.
    pub fn launch(&self) -> Result<()> {
        self.graph.launch().during("cuGraphLaunch")
    }

    /// The launches one replay makes.
    pub fn launches(&self) -> u32 {
        self.launches
    }
}
