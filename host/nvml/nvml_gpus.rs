//! The GPUs of a run as NVML sees them: NVML opened once, each CUDA device
//! matched to its NVML device, and their facts read.

use std::sync::Arc;

use super::{CudaDeviceId, Nvml, NvmlDevice, NvmlDeviceId, NvmlResult, match_device};
use crate::facts::{CudaOrdinal, Interconnect, NvmlDeviceFacts};

/// One GPU of the run and its NVML device.
pub struct MatchedGpu {
    /// The CUDA ordinal (what reports call the GPU by).
    pub ordinal: CudaOrdinal,
    pub device: NvmlDevice,
    pub facts: NvmlDeviceFacts,
}

/// NVML and the GPUs of the run it found.
pub struct NvmlGpus {
    nvml: Arc<Nvml>,
    gpus: Vec<MatchedGpu>,
    unmatched: Vec<String>,
}

impl NvmlGpus {
    /// Opens NVML (see [`Nvml::open`]) and matches each of `cuda`.
    pub fn open(cuda: &[CudaDeviceId]) -> NvmlResult<Self> {
        Self::with(Nvml::open()?, cuda)
    }

    /// Matches each of `cuda` among the GPUs `nvml` lists, and reads their facts. A CUDA
    /// device NVML does not list is left out, with why in [`unmatched`](Self::unmatched).
    pub fn with(nvml: Nvml, cuda: &[CudaDeviceId]) -> NvmlResult<Self> {
        let nvml = Arc::new(nvml);
        let mut listed: Vec<(NvmlDevice, NvmlDeviceId)> = Vec::new();
        for index in 0..nvml.device_count()? {
            // A GPU NVML cannot open (lost, or no permission) is simply not listed.
            let Ok(device) = nvml.device(index) else {
                continue;
            };
            let id = NvmlDeviceId {
                uuid: device.uuid().unwrap_or_default(),
                pci: device.pci_location().ok(),
            };
            listed.push((device, id));
        }
        let ids: Vec<NvmlDeviceId> = listed.iter().map(|(_, id)| id.clone()).collect();
        let mut gpus = Vec::new();
        let mut unmatched = Vec::new();
        for wanted in cuda {
            match match_device(wanted, &ids) {
                Ok((index, matched_by)) => {
                    let device = listed[index].0.clone();
                    gpus.push(MatchedGpu {
                        ordinal: wanted.ordinal,
                        facts: NvmlDeviceFacts::read(&device, matched_by),
                        device,
                    });
                }
                Err(why) => unmatched.push(why),
            }
        }
        Ok(Self { nvml, gpus, unmatched })
    }

    /// The GPUs of the run NVML found, in the order asked.
    pub fn gpus(&self) -> &[MatchedGpu] {
        &self.gpus
    }

    /// Why a CUDA device has no NVML device, one line each.
    pub fn unmatched(&self) -> &[String] {
        &self.unmatched
    }

    pub fn gpu(&self, ordinal: CudaOrdinal) -> Option<&MatchedGpu> {
        self.gpus.iter().find(|g| g.ordinal == ordinal)
    }

    /// "NVML (driver 580.82.07, NVML 13.580.82; libnvidia-ml.so.1)".
    pub fn source(&self) -> String {
        format!("NVML ({}; {})", self.nvml.version(), self.nvml.path())
    }

    /// The links between the GPUs and to the host.
    pub fn interconnect(&self) -> Interconnect<'_> {
        Interconnect::new(self.gpus.iter().map(|g| (g.ordinal, &g.facts)))
    }
}
