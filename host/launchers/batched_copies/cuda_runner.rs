use super::{PieceCopies, PieceCopyRunner};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, HostMemoryKind, PinnedBuffer};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{CudaTimer, timed_launches};

/// CUDA's piecewise copies: one `cuMemcpyHtoDAsync` a piece, from pinned memory.
pub const CUDA_PINNED_PIECES: PieceCopies = PieceCopies {
    call: "cuMemcpyHtoD",
    implementation: Implementation::CopyEngine,
    variant: "pinned, in pieces",
    label: "H2D copies (pinned)",
};

/// The copies on the GPU's stream from a pinned host buffer, timed by CUDA events.
pub struct CudaPieceCopyRunner<'g> {
    gpu: &'g Gpu,
    host: PinnedBuffer<f32>,
    device: DeviceBuffer<f32>,
    timer: CudaTimer<'g>,
}

impl<'g> CudaPieceCopyRunner<'g> {
    /// A pinned host buffer holding `source` and a device buffer of its length.
    pub fn new(gpu: &'g Gpu, source: &[f32]) -> Result<Self> {
        let mut host = PinnedBuffer::<f32>::new(gpu, source.len(), HostMemoryKind::Pinned)?;
        host.as_mut_slice().copy_from_slice(source);
        Ok(Self {
            gpu,
            host,
            device: DeviceBuffer::<f32>::uninit(gpu, source.len())?,
            timer: CudaTimer::new(gpu)?,
        })
    }
}

impl PieceCopyRunner for CudaPieceCopyRunner<'_> {
    fn copies(&self) -> PieceCopies {
        CUDA_PINNED_PIECES
    }

    fn clear_device(&mut self) -> Result<()> {
        self.device.fill(-1.0)
    }

    fn time(&mut self, piece: usize, settings: &RunSettings) -> Result<Vec<f64>> {
        if piece == 0 {
            return Err(Error::InvalidInput("a copy in pieces of 0 elements".into()));
        }
        let Self {
            gpu,
            host,
            device,
            timer,
        } = self;
        let len = host.len();
        let mut enqueue = || -> Result<()> {
            for start in (0..len).step_by(piece) {
                // SAFETY: the host buffer is not touched until the timer waits for the stream.
                unsafe { host.upload_async(start..(start + piece).min(len), device, gpu.stream())? };
            }
            Ok(())
        };
        let times = timed_launches(timer, settings, &mut enqueue)?;
        gpu.synchronize()?;
        Ok(times)
    }

    fn read_device(&self) -> Result<Vec<f32>> {
        self.device.to_host()
    }
}
