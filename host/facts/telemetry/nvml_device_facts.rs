//! What NVML says about a GPU that does not change during a run: its links
//! (PCIe generation and width, NVLinks and where they lead), its maximum
//! clocks and its power limit. Recorded once per run, in the report; the NVML
//! layer reads them (`NvmlDeviceFacts::read` in host/nvml/).

use serde::{Deserialize, Serialize};

use super::{MatchedBy, NvLinkVersion, PciLocation, pcie_theoretical_gbps};

/// The GPU's PCIe link: what it can train to and what it runs at now (an
/// idle GPU may train its link down; the telemetry samples it under load).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PcieLinkFacts {
    /// Highest generation of this GPU in this slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_generation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_width: Option<u32>,
    /// The GPU's own highest generation (more than `max_generation` in an older slot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_max_generation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_generation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_width: Option<u32>,
}

impl PcieLinkFacts {
    /// The link's theoretical bandwidth per direction at its maximum generation and width (GB/s).
    pub fn theoretical_gbps(&self) -> Option<f64> {
        pcie_theoretical_gbps(self.max_generation?, self.max_width?)
    }

    /// "gen 5 ×16 (63.0 GB/s per direction)", with the current state where it differs.
    pub fn describe(&self) -> String {
        let pair = |g: Option<u32>, w: Option<u32>| match (g, w) {
            (Some(g), Some(w)) => format!("gen {g} ×{w}"),
            (Some(g), None) => format!("gen {g}"),
            (None, Some(w)) => format!("×{w}"),
            (None, None) => "not reported".into(),
        };
        let mut text = pair(self.max_generation, self.max_width);
        if let Some(gbps) = self.theoretical_gbps() {
            text.push_str(&format!(" ({gbps:.1} GB/s per direction)"));
        }
        if let Some(gpu) = self.gpu_max_generation
            && self.max_generation.is_some_and(|slot| slot < gpu)
        {
            text.push_str(&format!(", the GPU could do gen {gpu}"));
        }
        let current = (self.current_generation, self.current_width);
        if current != (self.max_generation, self.max_width) && current != (None, None) {
            text.push_str(&format!(", {} when read", pair(current.0, current.1)));
        }
        text
    }
}

/// What an NVLink leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum LinkEnd {
    /// Another GPU, at this PCI location.
    Gpu {
        pci: PciLocation,
    },
    /// An NVSwitch: every GPU on the switches is one hop away.
    Switch,
    /// A CPU (IBM POWER's NPU) or something else NVML names.
    Cpu,
    Unknown,
}

impl LinkEnd {
    /// From `nvmlDeviceGetNvLinkRemoteDeviceType` (0 GPU, 1 IBM NPU, 2 switch) and the remote
    /// PCI location. Where NVML cannot say the type, a remote location is taken for a GPU's:
    /// it is then counted only between the two GPUs it names.
    pub fn classify(remote_type: Option<u32>, remote: Option<PciLocation>) -> Self {
        match (remote_type, remote) {
            (Some(2), _) => Self::Switch,
            (Some(1), _) => Self::Cpu,
            (Some(0) | None, Some(pci)) => Self::Gpu { pci },
            _ => Self::Unknown,
        }
    }
}

/// Where a link's speed comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkSpeedSource {
    /// NVML's per-link speed field (`NVML_FI_DEV_NVLINK_GET_SPEED`, or the older common speed).
    Nvml,
    /// The generation's nominal speed ([`NvLinkVersion::nominal_link_gbps`]).
    Nominal,
}

/// One NVLink of a GPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NvLinkFacts {
    pub link: u32,
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<NvLinkVersion>,
    /// Per direction, GB/s (NVML's MB/s / 1000, as nvidia-smi prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_source: Option<LinkSpeedSource>,
    pub remote: LinkEnd,
}

/// A GPU's facts from NVML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NvmlDeviceFacts {
    pub name: String,
    pub uuid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci: Option<PciLocation>,
    /// How this NVML device was tied to the CUDA device.
    pub matched_by: MatchedBy,
    pub pcie: PcieLinkFacts,
    /// The NVLinks NVML reports (active or not); empty without NVLink.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nvlinks: Vec<NvLinkFacts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_sm_clock_mhz: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memory_clock_mhz: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_limit_w: Option<f64>,
}

impl NvmlDeviceFacts {
    /// The active NVLinks.
    pub fn active_nvlinks(&self) -> impl Iterator<Item = &NvLinkFacts> {
        self.nvlinks.iter().filter(|l| l.active)
    }

    /// "18 links, NVLink 4.0, 26.6 GB/s each: 478.1 GB/s per direction", or `None` without an active link.
    pub fn describe_nvlinks(&self) -> Option<String> {
        let active: Vec<&NvLinkFacts> = self.active_nvlinks().collect();
        if active.is_empty() {
            return None;
        }
        let mut versions: Vec<String> = active.iter().filter_map(|l| l.version).map(|v| v.to_string()).collect();
        versions.dedup();
        let speeds: Vec<f64> = active.iter().filter_map(|l| l.speed_gbps).collect();
        let total: f64 = speeds.iter().sum();
        let mut text = format!(
            "{} active link{}",
            active.len(),
            if active.len() == 1 { "" } else { "s" }
        );
        if !versions.is_empty() {
            text.push_str(&format!(", NVLink {}", versions.join("/")));
        }
        if let (Some(lo), Some(hi)) = (
            speeds.iter().copied().reduce(f64::min),
            speeds.iter().copied().reduce(f64::max),
        ) {
            let each = if (hi - lo).abs() < 0.05 {
                format!("{hi:.1} GB/s each")
            } else {
                format!("{lo:.1}–{hi:.1} GB/s each")
            };
            let nominal = active.iter().any(|l| l.speed_source == Some(LinkSpeedSource::Nominal));
            text.push_str(&format!(
                ", {each}{}: {total:.1} GB/s per direction",
                if nominal { " (nominal for the version)" } else { "" }
            ));
        }
        let switches = active.iter().filter(|l| l.remote == LinkEnd::Switch).count();
        if switches > 0 {
            text.push_str(&format!(", {switches} to NVSwitches"));
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::{LinkEnd, PcieLinkFacts};
    use crate::facts::PciLocation;

    #[test]
    fn link_ends_by_remote_type() {
        let pci = PciLocation {
            domain: 0,
            bus: 0x2a,
            device: 0,
        };
        assert_eq!(LinkEnd::classify(Some(0), Some(pci)), LinkEnd::Gpu { pci });
        assert_eq!(LinkEnd::classify(None, Some(pci)), LinkEnd::Gpu { pci });
        assert_eq!(LinkEnd::classify(Some(2), Some(pci)), LinkEnd::Switch);
        assert_eq!(LinkEnd::classify(Some(1), None), LinkEnd::Cpu);
        assert_eq!(LinkEnd::classify(Some(0), None), LinkEnd::Unknown);
        assert_eq!(LinkEnd::classify(Some(255), Some(pci)), LinkEnd::Unknown);
        assert_eq!(serde_json::to_string(&LinkEnd::Switch).unwrap(), r#"{"kind":"switch"}"#);
    }

    #[test]
    fn pcie_facts_describe_the_slot_and_a_link_trained_down() {
        let link = PcieLinkFacts {
            max_generation: Some(4),
            max_width: Some(16),
            gpu_max_generation: Some(5),
            current_generation: Some(1),
            current_width: Some(16),
        };
        assert_eq!(
            link.describe(),
            "gen 4 ×16 (31.5 GB/s per direction), the GPU could do gen 5, gen 1 ×16 when read"
        );
        assert_eq!(PcieLinkFacts::default().describe(), "not reported");
        assert_eq!(PcieLinkFacts::default().theoretical_gbps(), None);
    }
}
