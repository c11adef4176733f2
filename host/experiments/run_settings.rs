use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::gpu::DeviceInfo;

/// How hard each sweep point is measured, and on how much data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Bytes of each source and destination buffer; `None` picks 8 × L2 (at least 64 MiB).
    pub buffer_mib: Option<u64>,
    /// Launches between the two timing events of one sample.
    pub reps: u32,
    /// Samples per point; the report gives their min, median and max.
    pub samples: u32,
}

impl Default for RunSettings {
    fn default() -> Self {
        Self {
            buffer_mib: None,
            reps: 20,
            samples: 11,
        }
    }
}

/// Largest buffer: indices are `int` in the guide's kernels, so at most 2^31 `f32`s.
pub const MAX_BUFFER_MIB: u64 = 8191;
const MIN_BUFFER_MIB: u64 = 1;

impl RunSettings {
    /// Rejects values that cannot give a meaningful measurement.
    pub fn validate(&self) -> Result<()> {
        if let Some(mib) = self.buffer_mib
            && !(MIN_BUFFER_MIB..=MAX_BUFFER_MIB).contains(&mib)
        {
            return Err(Error::InvalidInput(format!(
                "--size-mib {mib} is out of range: {MIN_BUFFER_MIB}..={MAX_BUFFER_MIB} (kernel indices are 32-bit)"
            )));
        }
        if !(1..=10_000).contains(&self.reps) {
            return Err(Error::InvalidInput(format!(
                "--reps {} is out of range 1..=10000",
                self.reps
            )));
        }
        if !(1..=1_000).contains(&self.samples) {
            return Err(Error::InvalidInput(format!(
                "--samples {} is out of range 1..=1000",
                self.samples
            )));
        }
        Ok(())
    }

    /// Bytes per buffer on this device: the user's choice, or 8 × L2 so that
    /// even the sparsest sweep point touches more memory than L2 holds.
    pub fn buffer_bytes(&self, device: &DeviceInfo) -> u64 {
        match self.buffer_mib {
            Some(mib) => mib << 20,
            None => {
                let l2 = device.l2_cache_bytes.max(0) as u64;
                (8 * l2).max(64 << 20).div_ceil(1 << 20).min(MAX_BUFFER_MIB) << 20
            }
        }
    }
}
