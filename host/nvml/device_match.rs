//! Which NVML device is a given CUDA device. CUDA's ordinals follow
//! `CUDA_VISIBLE_DEVICES` and `CUDA_DEVICE_ORDER`; NVML lists every GPU in
//! bus order: the two are tied by the GPU's UUID, else by its PCI location.

use crate::facts::{CudaOrdinal, DeviceInfo, MatchedBy, PciLocation};

/// What identifies a CUDA device (from [`DeviceInfo`](crate::facts::DeviceInfo)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CudaDeviceId {
    pub ordinal: CudaOrdinal,
    /// `GPU-…` as `cuDeviceGetUuid` gives it (a MIG instance gives its own, which NVML
    /// lists under its parent GPU: the PCI location then finds that GPU).
    pub uuid: Option<String>,
    /// `0000:c1:00`.
    pub pci_bus_id: String,
}

impl CudaDeviceId {
    /// The identity of the GPU `info` describes, by its CUDA ordinal (not its place in the run).
    pub fn of(info: &DeviceInfo) -> Self {
        Self {
            ordinal: info.ordinal,
            uuid: info.uuid.clone(),
            pci_bus_id: info.pci_bus_id.clone(),
        }
    }
}

/// What identifies an NVML device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvmlDeviceId {
    pub uuid: String,
    pub pci: Option<PciLocation>,
}

/// The index in `nvml` of the device that is `cuda`, and how it was found; `Err`
/// says what was looked for and what NVML offers.
pub fn match_device(cuda: &CudaDeviceId, nvml: &[NvmlDeviceId]) -> Result<(usize, MatchedBy), String> {
    if let Some(uuid) = cuda.uuid.as_deref()
        && let Some(index) = nvml.iter().position(|d| d.uuid.eq_ignore_ascii_case(uuid.trim()))
    {
        return Ok((index, MatchedBy::Uuid));
    }
    let wanted = PciLocation::parse(&cuda.pci_bus_id);
    if let Some(wanted) = wanted
        && let Some(index) = nvml.iter().position(|d| d.pci == Some(wanted))
    {
        return Ok((index, MatchedBy::PciLocation));
    }
    let offered: Vec<String> = nvml
        .iter()
        .map(|d| match d.pci {
            Some(pci) => format!("{} at {pci}", d.uuid),
            None => format!("{} (no PCI location)", d.uuid),
        })
        .collect();
    Err(format!(
        "NVML lists no GPU with UUID {} or PCI location {} (CUDA device {}); it lists {}",
        cuda.uuid.as_deref().unwrap_or("(none)"),
        cuda.pci_bus_id,
        cuda.ordinal,
        if offered.is_empty() {
            "none".to_string()
        } else {
            offered.join(", ")
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::{CudaDeviceId, CudaOrdinal, MatchedBy, NvmlDeviceId, match_device};
    use crate::facts::PciLocation;

    fn nvml(uuid: &str, bus: u32) -> NvmlDeviceId {
        NvmlDeviceId {
            uuid: uuid.into(),
            pci: Some(PciLocation {
                domain: 0,
                bus,
                device: 0,
            }),
        }
    }

    fn cuda(uuid: Option<&str>, bus_id: &str) -> CudaDeviceId {
        CudaDeviceId {
            ordinal: CudaOrdinal(0),
            uuid: uuid.map(Into::into),
            pci_bus_id: bus_id.into(),
        }
    }

    #[test]
    fn the_uuid_decides_whatever_the_order() {
        let list = [nvml("GPU-aaaa", 0x18), nvml("GPU-bbbb", 0x2a), nvml("GPU-cccc", 0x3b)];
        // CUDA_VISIBLE_DEVICES=2 makes NVML's third GPU CUDA's device 0.
        assert_eq!(
            match_device(&cuda(Some("GPU-CCCC"), "0000:3b:00"), &list),
            Ok((2, MatchedBy::Uuid))
        );
        // A UUID wins over a PCI location that points elsewhere.
        assert_eq!(
            match_device(&cuda(Some("GPU-bbbb"), "0000:18:00"), &list),
            Ok((1, MatchedBy::Uuid))
        );
    }

    #[test]
    fn the_pci_location_finds_a_mig_instances_parent_gpu() {
        let list = [nvml("GPU-aaaa", 0x18), nvml("GPU-bbbb", 0x2a)];
        assert_eq!(
            match_device(&cuda(Some("GPU-0123-mig-instance"), "0000:2a:00"), &list),
            Ok((1, MatchedBy::PciLocation))
        );
        assert_eq!(
            match_device(&cuda(None, "0000:18:00.0"), &list),
            Ok((0, MatchedBy::PciLocation))
        );
    }

    #[test]
    fn no_match_says_what_was_looked_for_and_what_nvml_lists() {
        let list = [nvml("GPU-aaaa", 0x18)];
        let why = match_device(&cuda(Some("GPU-ffff"), "0000:99:00"), &list).unwrap_err();
        assert!(why.contains("GPU-ffff") && why.contains("0000:99:00"), "{why}");
        assert!(why.contains("GPU-aaaa at 0000:18:00"), "{why}");
        assert!(
            match_device(&cuda(None, "garbage"), &[])
                .unwrap_err()
                .contains("lists none")
        );
    }
}
