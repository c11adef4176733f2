use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::facts::DeviceInfo;
use crate::stop_signal::StopSignal;

/// How hard each sweep point is measured, and on how much data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Bytes of each source and destination buffer; `None` picks 8 × L2 (at least 64 MiB).
    pub buffer_mib: Option<u64>,
    /// Launches between the two timing events of one sample.
    pub reps: u32,
    /// Samples per point; the report gives their min, median and max.
    pub samples: u32,
    /// The longest any wait on the GPU may take, in seconds (`--kernel-timeout`);
    /// reports written before the limit existed load with the default.
    #[serde(default = "default_kernel_timeout_s")]
    pub kernel_timeout_s: f64,
    /// Collect the GPU's hardware counters (CUPTI) for every kernel point, in one more,
    /// untimed launch after its timed samples (`--counters`).
    #[serde(default)]
    pub counters: bool,
    /// Set by Ctrl-C: the measurement loops stop after the point in progress.
    #[serde(skip)]
    pub stop: StopSignal,
}

fn default_kernel_timeout_s() -> f64 {
    DEFAULT_KERNEL_TIMEOUT.as_secs_f64()
}

impl Default for RunSettings {
    fn default() -> Self {
        Self {
            buffer_mib: None,
            reps: 20,
            samples: 11,
            kernel_timeout_s: default_kernel_timeout_s(),
            counters: false,
            stop: StopSignal::new(),
        }
    }
}

impl RunSettings {
    /// These settings with `factor` times the samples: for points whose ledger figure would otherwise
    /// hang on one or two outliers among the default 11 (the median's interval is the 2nd to the 10th
    /// sample; with 33 it is the 11th to the 23rd). Only cheap points take it.
    pub fn with_samples_times(&self, factor: u32) -> Self {
        Self {
            samples: self.samples.saturating_mul(factor),
            ..self.clone()
        }
    }
}

/// Largest buffer: indices are `int` in the guide's kernels, so at most 2^31 `f32`s.
pub const MAX_BUFFER_MIB: u64 = 8191;
const MIN_BUFFER_MIB: u64 = 1;
/// The kernel time limit when none is given (`--kernel-timeout`'s default; a GPU's
/// [`Watchdog`](crate::gpu::Watchdog) starts with it).
pub const DEFAULT_KERNEL_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest kernel time limit: a day (and a `Duration` can always hold it).
pub const MAX_KERNEL_TIMEOUT_S: f64 = 86_400.0;
/// Shortest kernel time limit: a millisecond (a wait polls about every 10 µs).
pub const MIN_KERNEL_TIMEOUT_S: f64 = 0.001;
/// The ranges of the other numeric settings, as the command line states them.
pub const REPS_RANGE: std::ops::RangeInclusive<u32> = 1..=10_000;
pub const SAMPLES_RANGE: std::ops::RangeInclusive<u32> = 1..=1_000;
pub const BUFFER_MIB_RANGE: std::ops::RangeInclusive<u64> = MIN_BUFFER_MIB..=MAX_BUFFER_MIB;

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
        if !REPS_RANGE.contains(&self.reps) {
            return Err(Error::InvalidInput(format!(
                "--reps {} is out of range 1..=10000",
                self.reps
            )));
        }
        if !SAMPLES_RANGE.contains(&self.samples) {
            return Err(Error::InvalidInput(format!(
                "--samples {} is out of range 1..=1000",
                self.samples
            )));
        }
        validate_kernel_timeout(self.kernel_timeout_s)?;
        Ok(())
    }

    /// The kernel time limit (call after [`validate`](Self::validate)).
    pub fn kernel_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.kernel_timeout_s.clamp(MIN_KERNEL_TIMEOUT_S, MAX_KERNEL_TIMEOUT_S))
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

/// Checks a `--kernel-timeout` value: seconds, finite, more than 0, at most a day.
pub fn validate_kernel_timeout(seconds: f64) -> Result<()> {
    if seconds.is_finite() && (MIN_KERNEL_TIMEOUT_S..=MAX_KERNEL_TIMEOUT_S).contains(&seconds) {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "--kernel-timeout {seconds} is out of range: give seconds from {MIN_KERNEL_TIMEOUT_S} to {MAX_KERNEL_TIMEOUT_S}"
        )))
    }
}
