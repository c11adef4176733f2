//! The NVML layer reads what the report records of a GPU that does not change
//! during a run: its links, maximum clocks and power limit.

use super::NvmlDevice;
use super::ffi::{
    NVLINK_MAX_LINKS, NVML_ERROR_INVALID_ARGUMENT, NVML_FI_DEV_NVLINK_GET_SPEED, NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON,
};
use super::nvml_device::ClockDomain;
use super::nvml_error::NvmlError;
use crate::facts::{LinkEnd, LinkSpeedSource, MatchedBy, NvLinkFacts, NvLinkVersion, NvmlDeviceFacts, PcieLinkFacts};

impl NvmlDeviceFacts {
    /// Reads the facts of `device`, leaving out what this GPU or driver does not report.
    pub fn read(device: &NvmlDevice, matched_by: MatchedBy) -> Self {
        Self {
            name: device.name().unwrap_or_default(),
            uuid: device.uuid().unwrap_or_default(),
            pci: device.pci_location().ok(),
            matched_by,
            pcie: PcieLinkFacts {
                max_generation: device.max_pcie_generation().ok(),
                max_width: device.max_pcie_width().ok(),
                gpu_max_generation: device.gpu_max_pcie_generation().ok(),
                current_generation: device.current_pcie_generation().ok(),
                current_width: device.current_pcie_width().ok(),
            },
            nvlinks: read_nvlinks(device),
            max_sm_clock_mhz: device.max_clock_mhz(ClockDomain::Sm).ok(),
            max_memory_clock_mhz: device.max_clock_mhz(ClockDomain::Memory).ok(),
            power_limit_w: device.power_limit_mw().ok().map(|mw| mw as f64 / 1000.0),
        }
    }
}

/// Every NVLink NVML answers for (stopping at the first index it calls invalid), with speeds.
fn read_nvlinks(device: &NvmlDevice) -> Vec<NvLinkFacts> {
    let mut links = Vec::new();
    for link in 0..NVLINK_MAX_LINKS {
        let active = match device.nvlink_active(link) {
            Ok(active) => active,
            Err(NvmlError::Call { code, .. }) if code == NVML_ERROR_INVALID_ARGUMENT => break,
            // Not supported (no NVLink), or the library lacks the query: no links.
            Err(_) => break,
        };
        let version = device.nvlink_version_code(link).ok().and_then(NvLinkVersion::from_nvml);
        let remote = if active {
            LinkEnd::classify(
                device.nvlink_remote_type_code(link).ok(),
                device.nvlink_remote_location(link).ok(),
            )
        } else {
            LinkEnd::Unknown
        };
        links.push(NvLinkFacts {
            link,
            active,
            version,
            speed_gbps: None,
            speed_source: None,
            remote,
        });
    }
    let active: Vec<u32> = links.iter().filter(|l| l.active).map(|l| l.link).collect();
    let per_link = device
        .field_values(
            &active
                .iter()
                .map(|&link| (NVML_FI_DEV_NVLINK_GET_SPEED, link))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_default();
    let common = device
        .field_values(&[(NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON, 0)])
        .ok()
        .and_then(|v| v.first().copied().flatten());
    for link in links.iter_mut().filter(|l| l.active) {
        let measured = active
            .iter()
            .position(|&l| l == link.link)
            .and_then(|i| per_link.get(i).copied().flatten())
            .or(common)
            .filter(|mbps| *mbps > 0.0);
        (link.speed_gbps, link.speed_source) = match (measured, link.version.and_then(NvLinkVersion::nominal_link_gbps))
        {
            (Some(mbps), _) => (Some(mbps / 1000.0), Some(LinkSpeedSource::Nvml)),
            (None, Some(gbps)) => (Some(gbps), Some(LinkSpeedSource::Nominal)),
            (None, None) => (None, None),
        };
    }
    links
}
