//! How the NVML device recorded for a GPU was tied to its CUDA device.

use serde::{Deserialize, Serialize};

/// How a CUDA device was found in NVML's list (by its UUID, else by its PCI location).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchedBy {
    Uuid,
    PciLocation,
}
