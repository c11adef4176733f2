//! Theoretical figures of the links a GPU talks over, by generation: what a
//! measured host-link or peer bandwidth is compared with. GB = 1e9 bytes,
//! per direction (a link carries that much each way at once).

use std::fmt;

use serde::{Deserialize, Serialize};

/// PCIe bandwidth of one lane, one direction, in GB/s, after line encoding
/// (8b/10b for generations 1–2, 128b/130b for 3–5, the 256-byte FLIT with
/// 242 bytes of payload and CRC for 6) and before packet headers, which cost
/// another 5–20% depending on the payload size. `None` for an unknown generation.
pub fn pcie_lane_gbps(generation: u32) -> Option<f64> {
    let (giga_transfers, efficiency) = match generation {
        1 => (2.5, 8.0 / 10.0),
        2 => (5.0, 8.0 / 10.0),
        3 => (8.0, 128.0 / 130.0),
        4 => (16.0, 128.0 / 130.0),
        5 => (32.0, 128.0 / 130.0),
        6 => (64.0, 242.0 / 256.0),
        _ => return None,
    };
    Some(giga_transfers * efficiency / 8.0)
}

/// PCIe bandwidth of a link of `width` lanes at `generation`, per direction (GB/s):
/// 63.0 GB/s for generation 5 ×16. `None` for an unknown generation or no lanes.
pub fn pcie_theoretical_gbps(generation: u32, width: u32) -> Option<f64> {
    (width > 0).then_some(())?;
    Some(pcie_lane_gbps(generation)? * width as f64)
}

/// An NVLink generation, as NVML numbers them (`nvmlNvlinkVersion_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NvLinkVersion {
    #[serde(rename = "1.0")]
    V1_0,
    #[serde(rename = "2.0")]
    V2_0,
    #[serde(rename = "2.2")]
    V2_2,
    #[serde(rename = "3.0")]
    V3_0,
    #[serde(rename = "3.1")]
    V3_1,
    #[serde(rename = "4.0")]
    V4_0,
    #[serde(rename = "5.0")]
    V5_0,
    #[serde(rename = "6.0")]
    V6_0,
}

impl NvLinkVersion {
    /// From `nvmlDeviceGetNvLinkVersion`'s number (1 = 1.0 … 6 = 4.0, 7 = 5.0, 8 = 6.0).
    pub fn from_nvml(code: u32) -> Option<Self> {
        Some(match code {
            1 => Self::V1_0,
            2 => Self::V2_0,
            3 => Self::V2_2,
            4 => Self::V3_0,
            5 => Self::V3_1,
            6 => Self::V4_0,
            7 => Self::V5_0,
            8 => Self::V6_0,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::V1_0 => "1.0",
            Self::V2_0 => "2.0",
            Self::V2_2 => "2.2",
            Self::V3_0 => "3.0",
            Self::V3_1 => "3.1",
            Self::V4_0 => "4.0",
            Self::V5_0 => "5.0",
            Self::V6_0 => "6.0",
        }
    }

    /// One link's nominal bandwidth per direction (GB/s) on NVIDIA's data-centre GPUs of that
    /// generation: P100 20, V100 / A100 / H100 25, B200 50. Only a fallback for when NVML does
    /// not give the link's speed: `None` where the generation's speed varies by product
    /// (2.2, 3.1: consumer bridges run slower) or is not known here (6.0).
    pub fn nominal_link_gbps(self) -> Option<f64> {
        match self {
            Self::V1_0 => Some(20.0),
            Self::V2_0 | Self::V3_0 | Self::V4_0 => Some(25.0),
            Self::V5_0 => Some(50.0),
            Self::V2_2 | Self::V3_1 | Self::V6_0 => None,
        }
    }
}

impl fmt::Display for NvLinkVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::{NvLinkVersion, pcie_lane_gbps, pcie_theoretical_gbps};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn pcie_links_by_generation_and_width() {
        // The figures vendors quote per direction: gen 3 ×16 ≈ 15.75, gen 4 ≈ 31.5, gen 5 ≈ 63.0 GB/s.
        assert!(close(pcie_theoretical_gbps(3, 16).unwrap(), 15.754));
        assert!(close(pcie_theoretical_gbps(4, 16).unwrap(), 31.508));
        assert!(close(pcie_theoretical_gbps(5, 16).unwrap(), 63.015));
        assert!(close(pcie_theoretical_gbps(1, 16).unwrap(), 4.0));
        assert!(close(pcie_theoretical_gbps(2, 8).unwrap(), 4.0));
        assert!(close(pcie_lane_gbps(6).unwrap(), 7.5625));
        // Halving the width halves the link.
        assert!(close(
            pcie_theoretical_gbps(4, 8).unwrap() * 2.0,
            pcie_theoretical_gbps(4, 16).unwrap()
        ));
        assert_eq!(pcie_theoretical_gbps(0, 16), None);
        assert_eq!(pcie_theoretical_gbps(7, 16), None);
        assert_eq!(pcie_theoretical_gbps(4, 0), None);
    }

    #[test]
    fn nvlink_versions_follow_nvmls_numbering() {
        assert_eq!(NvLinkVersion::from_nvml(0), None);
        assert_eq!(NvLinkVersion::from_nvml(4), Some(NvLinkVersion::V3_0));
        assert_eq!(NvLinkVersion::from_nvml(6), Some(NvLinkVersion::V4_0));
        assert_eq!(
            NvLinkVersion::from_nvml(7).map(|v| v.to_string()).as_deref(),
            Some("5.0")
        );
        assert_eq!(NvLinkVersion::from_nvml(9), None);
        // H100: 18 links × 25 GB/s = 450 GB/s per direction, NVIDIA's 900 GB/s both ways.
        assert_eq!(NvLinkVersion::V4_0.nominal_link_gbps().map(|g| 18.0 * g), Some(450.0));
        assert_eq!(NvLinkVersion::V3_1.nominal_link_gbps(), None);
        assert_eq!(serde_json::to_string(&NvLinkVersion::V2_2).unwrap(), "\"2.2\"");
    }
}
