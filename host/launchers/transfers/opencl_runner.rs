use super::{TransferDirection, TransferEntry, TransferRunner, timed_copies};
use crate::error::{Error, Result};
use crate::gpu::HostMemoryKind;
use crate::opencl::{ClBuffer, ClContext, ClQueue, MappedHostBuffer};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{HostClock, OpenClTimer};

/// OpenCL's copies (the whitepaper; OpenCL Programming Guide §3.3): writes,
/// then reads, from ordinary host memory and from a mapped
/// `CL_MEM_ALLOC_HOST_PTR` buffer (the documents' recipe for pinned memory).
pub fn opencl_transfer_entries() -> Vec<TransferEntry> {
    [
        (TransferDirection::HostToDevice, "clEnqueueWriteBuffer"),
        (TransferDirection::DeviceToHost, "clEnqueueReadBuffer"),
    ]
    .into_iter()
    .flat_map(|(direction, call)| {
        [
            (HostMemoryKind::Pageable, "ordinary"),
            (HostMemoryKind::Pinned, "ALLOC_HOST_PTR"),
        ]
        .map(|(kind, variant)| TransferEntry {
            implementation: Implementation::OpenClC,
            direction,
            host: Some(kind),
            call,
            variant,
            sample_factor: 1,
        })
    })
    .collect()
}

/// The buffers of every copy, at the largest size.
struct OpenClTransferBuffers {
    source: Vec<f32>,
    device: ClBuffer<f32>,
    /// Whether `device` holds `source` (reads copy from it; writes overwrite it).
    device_holds_source: bool,
    ordinary: Vec<f32>,
    pinned: MappedHostBuffer<f32>,
}

/// OpenCL's copies on one in-order profiling queue: ordinary memory with
/// blocking `clEnqueueWriteBuffer` / `clEnqueueReadBuffer` timed by the host
/// clock, the `CL_MEM_ALLOC_HOST_PTR` buffer (mapped once with
/// `clEnqueueMapBuffer`) with non-blocking copies timed by profiling events.
pub struct OpenClTransferRunner<'a> {
    context: &'a ClContext,
    queue: &'a ClQueue,
    buffers: Option<OpenClTransferBuffers>,
}

impl<'a> OpenClTransferRunner<'a> {
    pub fn new(context: &'a ClContext, queue: &'a ClQueue) -> Self {
        Self {
            context,
            queue,
            buffers: None,
        }
    }
}

fn not_prepared() -> Error {
    Error::InvalidInput("transfer buffers not prepared".into())
}

fn not_measured(entry: &TransferEntry) -> Error {
    Error::InvalidInput(format!("OpenCL does not measure {} {}", entry.call, entry.variant))
}

impl TransferRunner for OpenClTransferRunner<'_> {
    fn name(&self) -> &'static str {
        "OpenCL transfers"
    }

    fn entries(&self) -> Vec<TransferEntry> {
        opencl_transfer_entries()
    }

    fn prepare(&mut self, source: &[f32]) -> Result<()> {
        self.buffers = None; // free the last buffers first
        let (context, queue) = (self.context, self.queue);
        let device = ClBuffer::<f32>::from_host(context, queue, source)?;
        let ordinary = source.to_vec();
        let mut pinned = MappedHostBuffer::<f32>::new(context, queue, source.len())?;
        pinned.as_mut_slice().copy_from_slice(source);
        self.buffers = Some(OpenClTransferBuffers {
            source: source.to_vec(),
            device,
            device_holds_source: true,
            ordinary,
            pinned,
        });
        Ok(())
    }

    fn time(&mut self, entry: &TransferEntry, count: usize, settings: &RunSettings) -> Result<Vec<f64>> {
        let queue = self.queue;
        let OpenClTransferBuffers {
            source,
            device,
            device_holds_source,
            ordinary,
            pinned,
        } = self.buffers.as_mut().ok_or_else(not_prepared)?;
        if entry.direction == TransferDirection::HostToDevice {
            device.fill(queue, -1.0)?; // other data, so the check proves the copy happened
            *device_holds_source = false;
        } else if !*device_holds_source {
            device.write(queue, 0, source)?;
            *device_holds_source = true;
        }
        let factor = entry.sample_factor;
        match (entry.direction, entry.host) {
            (TransferDirection::HostToDevice, Some(HostMemoryKind::Pageable)) => {
                let mut copy = || Ok(device.write(queue, 0, &ordinary[..count])?);
                timed_copies(&mut HostClock, settings, factor, &mut copy)
            }
            (TransferDirection::HostToDevice, Some(HostMemoryKind::Pinned)) => {
                // SAFETY: neither buffer is touched by the host until the timer has finished the queue.
                let mut copy = || -> Result<()> { Ok(unsafe { pinned.upload_async(queue, 0..count, device) }?) };
                timed_copies(&mut OpenClTimer(queue), settings, factor, &mut copy)
            }
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pageable)) => {
                ordinary[..count].fill(-1.0);
                let mut copy = || Ok(device.read(queue, 0, &mut ordinary[..count])?);
                timed_copies(&mut HostClock, settings, factor, &mut copy)
            }
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pinned)) => {
                pinned.as_mut_slice()[..count].fill(-1.0);
                // SAFETY: as above.
                let mut copy = || -> Result<()> { Ok(unsafe { pinned.download_async(queue, 0..count, device) }?) };
                let times = timed_copies(&mut OpenClTimer(queue), settings, factor, &mut copy)?;
                queue.finish()?;
                Ok(times)
            }
            _ => Err(not_measured(entry)),
        }
    }

    fn read_back(&mut self, entry: &TransferEntry, count: usize) -> Result<Vec<f32>> {
        let queue = self.queue;
        let buffers = self.buffers.as_mut().ok_or_else(not_prepared)?;
        let mut out = match (entry.direction, entry.host) {
            (TransferDirection::HostToDevice, _) => buffers.device.to_host(queue)?,
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pageable)) => {
                let out = buffers.ordinary[..count].to_vec();
                buffers.ordinary[..count].copy_from_slice(&buffers.source[..count]);
                out
            }
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pinned)) => {
                buffers.pinned.as_slice()[..count].to_vec()
            }
            _ => return Err(not_measured(entry)),
        };
        out.truncate(count);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::opencl_transfer_entries;
    use crate::gpu::HostMemoryKind;
    use crate::launchers::TransferDirection;
    use crate::testbed::Implementation;

    #[test]
    fn writes_then_reads_from_ordinary_and_alloc_host_ptr_memory() {
        let entries = opencl_transfer_entries();
        let keys: Vec<_> = entries
            .iter()
            .map(|e| (e.call, e.variant, e.direction, e.host))
            .collect();
        let (h2d, d2h) = (TransferDirection::HostToDevice, TransferDirection::DeviceToHost);
        let (ordinary, pinned) = (Some(HostMemoryKind::Pageable), Some(HostMemoryKind::Pinned));
        assert_eq!(
            keys,
            [
                ("clEnqueueWriteBuffer", "ordinary", h2d, ordinary),
                ("clEnqueueWriteBuffer", "ALLOC_HOST_PTR", h2d, pinned),
                ("clEnqueueReadBuffer", "ordinary", d2h, ordinary),
                ("clEnqueueReadBuffer", "ALLOC_HOST_PTR", d2h, pinned),
            ]
        );
        assert!(
            entries
                .iter()
                .all(|e| e.implementation == Implementation::OpenClC && e.sample_factor == 1)
        );
    }
}
