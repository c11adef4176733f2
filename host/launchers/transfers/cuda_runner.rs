use super::{PAGEABLE_SAMPLE_FACTOR, TransferDirection, TransferEntry, TransferRunner, timed_copies};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, HostMemoryKind, PinnedBuffer};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{CudaTimer, HostClock};

/// CUDA's copies: both directions from every host memory kind (mapped only
/// where the GPU can map host memory), then device to device, on the copy engines.
pub fn cuda_transfer_entries(can_map_host_memory: bool) -> Vec<TransferEntry> {
    let kinds: Vec<HostMemoryKind> = HostMemoryKind::ALL
        .into_iter()
        .filter(|&k| k != HostMemoryKind::Mapped || can_map_host_memory)
        .collect();
    let mut entries = Vec::new();
    for (direction, call) in [
        (TransferDirection::HostToDevice, "cuMemcpyHtoD"),
        (TransferDirection::DeviceToHost, "cuMemcpyDtoH"),
    ] {
        entries.extend(kinds.iter().map(|&kind| TransferEntry {
            implementation: Implementation::CopyEngine,
            direction,
            host: Some(kind),
            call,
            variant: kind.label(),
            sample_factor: if kind == HostMemoryKind::Pageable {
                PAGEABLE_SAMPLE_FACTOR
            } else {
                1
            },
        }));
    }
    entries.push(TransferEntry {
        implementation: Implementation::CopyEngine,
        direction: TransferDirection::DeviceToDevice,
        host: None,
        call: "cuMemcpyDtoD",
        variant: "",
        sample_factor: 1,
    });
    entries
}

/// The buffers of every copy, at the largest size.
struct CudaTransferBuffers<'g> {
    source: Vec<f32>,
    /// Holds `source`: what device-to-host and device-to-device copies read.
    device_a: DeviceBuffer<f32>,
    /// What host-to-device and device-to-device copies write.
    device_b: DeviceBuffer<f32>,
    pageable: Vec<f32>,
    /// One buffer of each page-locked kind measured.
    pinned: Vec<PinnedBuffer<f32>>,
    events: CudaTimer<'g>,
}

/// CUDA's copies on the GPU's stream: pageable memory with blocking copies
/// timed by the host clock (the driver stages them through its own pinned
/// buffer, so the GPU-side time would hide part of the cost), page-locked
/// memory with asynchronous copies timed by CUDA events.
pub struct CudaTransferRunner<'g> {
    gpu: &'g Gpu,
    can_map_host_memory: bool,
    buffers: Option<CudaTransferBuffers<'g>>,
    /// The device buffer the last pageable host-to-device copy wrote (of its size).
    staging: Option<DeviceBuffer<f32>>,
}

impl<'g> CudaTransferRunner<'g> {
    pub fn new(gpu: &'g Gpu, can_map_host_memory: bool) -> Self {
        Self {
            gpu,
            can_map_host_memory,
            buffers: None,
            staging: None,
        }
    }
}

fn not_prepared() -> Error {
    Error::InvalidInput("transfer buffers not prepared".into())
}

fn no_buffer(kind: HostMemoryKind) -> Error {
    Error::InvalidInput(format!("no {} host buffer prepared", kind.label()))
}

impl TransferRunner for CudaTransferRunner<'_> {
    fn name(&self) -> &'static str {
        "transfers"
    }

    fn entries(&self) -> Vec<TransferEntry> {
        cuda_transfer_entries(self.can_map_host_memory)
    }

    fn prepare(&mut self, source: &[f32]) -> Result<()> {
        self.buffers = None; // free the last buffers first
        let gpu = self.gpu;
        let elements = source.len();
        let device_a = DeviceBuffer::from_host(gpu, source)?;
        let device_b = DeviceBuffer::<f32>::uninit(gpu, elements)?;
        let pageable = source.to_vec(); // touched before any timing: no first-touch page faults in the samples
        let pinned: Vec<PinnedBuffer<f32>> = cuda_transfer_entries(self.can_map_host_memory)
            .into_iter()
            .filter(|e| e.direction == TransferDirection::HostToDevice)
            .filter_map(|e| e.host.filter(|&k| k != HostMemoryKind::Pageable))
            .map(|k| PinnedBuffer::new(gpu, elements, k))
            .collect::<Result<_>>()?;
        self.buffers = Some(CudaTransferBuffers {
            source: source.to_vec(),
            device_a,
            device_b,
            pageable,
            pinned,
            events: CudaTimer::new(gpu)?,
        });
        Ok(())
    }

    fn time(&mut self, entry: &TransferEntry, count: usize, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            gpu, buffers, staging, ..
        } = self;
        let gpu: &Gpu = gpu;
        let CudaTransferBuffers {
            source,
            device_a,
            device_b,
            pageable,
            pinned,
            events,
        } = buffers.as_mut().ok_or_else(not_prepared)?;
        let factor = entry.sample_factor;
        match (entry.direction, entry.host) {
            (TransferDirection::DeviceToDevice, _) => {
                device_b.fill(-1.0)?; // other data, so the check proves the copy happened
                timed_copies(events, settings, factor, &mut || {
                    device_b.copy_from_device_async(device_a, count)
                })
            }
            (TransferDirection::HostToDevice, Some(HostMemoryKind::Pageable)) => {
                let mut fresh = DeviceBuffer::<f32>::uninit(gpu, count)?;
                let mut copy = || fresh.copy_from_host(&pageable[..count]); // blocking
                let times = timed_copies(&mut HostClock, settings, factor, &mut copy)?;
                *staging = Some(fresh);
                Ok(times)
            }
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pageable)) => {
                pageable[..count].fill(-1.0);
                let filled = DeviceBuffer::from_host(gpu, &source[..count])?;
                let mut copy = || filled.copy_to_host(&mut pageable[..count]); // blocking
                timed_copies(&mut HostClock, settings, factor, &mut copy)
            }
            (TransferDirection::HostToDevice, Some(kind)) => {
                let host = pinned
                    .iter_mut()
                    .find(|p| p.kind() == kind)
                    .ok_or_else(|| no_buffer(kind))?;
                device_b.fill(-1.0)?;
                host.as_mut_slice()[..count].copy_from_slice(&source[..count]);
                // SAFETY: neither buffer is touched by the host until the timer has waited for the copies.
                let mut copy = || unsafe { host.upload_async(0..count, device_b, gpu.stream()) };
                timed_copies(events, settings, factor, &mut copy)
            }
            (TransferDirection::DeviceToHost, Some(kind)) => {
                let host = pinned
                    .iter_mut()
                    .find(|p| p.kind() == kind)
                    .ok_or_else(|| no_buffer(kind))?;
                host.as_mut_slice()[..count].fill(-1.0);
                // SAFETY: as above.
                let mut copy = || unsafe { host.download_async(0..count, device_a, gpu.stream()) };
                timed_copies(events, settings, factor, &mut copy)
            }
            (_, None) => Err(Error::InvalidInput("a host-device copy needs host memory".into())),
        }
    }

    fn read_back(&mut self, entry: &TransferEntry, count: usize) -> Result<Vec<f32>> {
        let buffers = self.buffers.as_mut().ok_or_else(not_prepared)?;
        let mut out = match (entry.direction, entry.host) {
            (TransferDirection::HostToDevice, Some(HostMemoryKind::Pageable)) => {
                self.staging.take().ok_or_else(not_prepared)?.to_host()?
            }
            (TransferDirection::DeviceToHost, Some(HostMemoryKind::Pageable)) => {
                let out = buffers.pageable[..count].to_vec();
                buffers.pageable[..count].copy_from_slice(&buffers.source[..count]);
                out
            }
            (TransferDirection::DeviceToHost, Some(kind)) => {
                let host = buffers
                    .pinned
                    .iter()
                    .find(|p| p.kind() == kind)
                    .ok_or_else(|| no_buffer(kind))?;
                host.as_slice()[..count].to_vec()
            }
            _ => buffers.device_b.to_host()?,
        };
        out.truncate(count);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::cuda_transfer_entries;
    use crate::gpu::HostMemoryKind;
    use crate::launchers::{PAGEABLE_SAMPLE_FACTOR, TransferDirection};
    use crate::testbed::Implementation;

    #[test]
    fn both_directions_of_every_host_kind_then_device_to_device() {
        let keys: Vec<(&str, &str)> = cuda_transfer_entries(true)
            .iter()
            .map(|e| (e.call, e.variant))
            .collect();
        let expected: Vec<(&str, &str)> = ["cuMemcpyHtoD", "cuMemcpyDtoH"]
            .into_iter()
            .flat_map(|call| ["pageable", "pinned", "write-combined", "mapped"].map(|v| (call, v)))
            .chain([("cuMemcpyDtoD", "")])
            .collect();
        assert_eq!(keys, expected);
        let entries = cuda_transfer_entries(true);
        assert!(entries.iter().all(|e| e.implementation == Implementation::CopyEngine));
        let last = entries.last().unwrap();
        assert_eq!((last.direction, last.host), (TransferDirection::DeviceToDevice, None));
        for entry in &entries {
            let pageable = entry.host == Some(HostMemoryKind::Pageable);
            assert_eq!(entry.sample_factor, if pageable { PAGEABLE_SAMPLE_FACTOR } else { 1 });
            assert_eq!(entry.host.map_or("", HostMemoryKind::label), entry.variant);
        }
    }

    #[test]
    fn mapped_memory_is_left_out_where_the_gpu_cannot_map_it() {
        let entries = cuda_transfer_entries(false);
        assert_eq!(entries.len(), 7);
        assert!(entries.iter().all(|e| e.host != Some(HostMemoryKind::Mapped)));
        assert_eq!(cuda_transfer_entries(true).len(), 9);
    }
}
