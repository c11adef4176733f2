//! Min / median / max of a GPU's telemetry over a stretch of a run, and the
//! clock event reasons seen in it.

use serde::{Deserialize, Serialize};

use super::{ClockEventReason, TelemetrySample};
use crate::stats::Summary;

/// How many samples of a stretch showed a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonCount {
    pub reason: ClockEventReason,
    pub samples: usize,
}

/// A GPU's telemetry over a stretch of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TelemetrySummary {
    pub samples: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sm_clock_mhz: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_clock_mhz: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature_c: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie_generation: Option<Summary>,
    /// Samples that reported their clock event reasons (none set is a reading too).
    #[serde(default)]
    pub reason_samples: usize,
    /// Every reason seen, with how many samples showed it, in NVML's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<ReasonCount>,
}

fn summary_of(samples: &[TelemetrySample], figure: impl Fn(&TelemetrySample) -> Option<f64>) -> Option<Summary> {
    let values: Vec<f64> = samples.iter().filter_map(figure).collect();
    Summary::of(&values)
}

impl TelemetrySummary {
    pub fn of(samples: &[TelemetrySample]) -> Self {
        let mut reasons: Vec<ReasonCount> = Vec::new();
        for bits in samples.iter().filter_map(|s| s.reason_bits) {
            for reason in ClockEventReason::from_bits(bits) {
                match reasons.iter_mut().find(|r| r.reason == reason) {
                    Some(count) => count.samples += 1,
                    None => reasons.push(ReasonCount { reason, samples: 1 }),
                }
            }
        }
        reasons.sort_by_key(|r| r.reason);
        Self {
            samples: samples.len(),
            sm_clock_mhz: summary_of(samples, |s| s.sm_clock_mhz.map(f64::from)),
            memory_clock_mhz: summary_of(samples, |s| s.memory_clock_mhz.map(f64::from)),
            power_w: summary_of(samples, |s| s.power_mw.map(|mw| mw as f64 / 1000.0)),
            temperature_c: summary_of(samples, |s| s.temperature_c.map(f64::from)),
            pcie_generation: summary_of(samples, |s| s.pcie_generation.map(f64::from)),
            reason_samples: samples.iter().filter(|s| s.reason_bits.is_some()).count(),
            reasons,
        }
    }

    /// The reasons seen that lower clocks under load (power, thermal, hardware slowdowns).
    pub fn slowdowns(&self) -> impl Iterator<Item = &ReasonCount> {
        self.reasons.iter().filter(|r| r.reason.is_slowdown())
    }

    pub fn throttled(&self) -> bool {
        self.slowdowns().next().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::{ReasonCount, TelemetrySummary};
    use crate::facts::{ClockEventReason, TelemetrySample};

    fn sample(sm: u32, power_mw: u32, bits: u64) -> TelemetrySample {
        TelemetrySample {
            sm_clock_mhz: Some(sm),
            memory_clock_mhz: Some(2619),
            power_mw: Some(power_mw),
            temperature_c: Some(40 + sm / 500),
            reason_bits: Some(bits),
            pcie_generation: None,
        }
    }

    #[test]
    fn min_median_max_and_the_reasons_seen() {
        let samples = [
            sample(1980, 300_000, 0),
            sample(1755, 699_500, 0x4),
            sample(1830, 690_000, 0x4 | 0x20),
            sample(1980, 120_000, 0x1),
            TelemetrySample::default(),
        ];
        let s = TelemetrySummary::of(&samples);
        assert_eq!(s.samples, 5);
        let sm = s.sm_clock_mhz.unwrap();
        assert_eq!((sm.min, sm.median, sm.max), (1755.0, 1905.0, 1980.0));
        let power = s.power_w.unwrap();
        assert_eq!((power.min, power.max), (120.0, 699.5));
        assert_eq!(s.memory_clock_mhz.unwrap().min, 2619.0);
        assert_eq!(s.pcie_generation, None);
        assert_eq!(s.reason_samples, 4);
        assert_eq!(
            s.reasons,
            vec![
                ReasonCount {
                    reason: ClockEventReason::GpuIdle,
                    samples: 1
                },
                ReasonCount {
                    reason: ClockEventReason::SwPowerCap,
                    samples: 2
                },
                ReasonCount {
                    reason: ClockEventReason::SwThermalSlowdown,
                    samples: 1
                },
            ]
        );
        assert!(s.throttled());
        assert_eq!(s.slowdowns().count(), 2);
    }

    #[test]
    fn idle_alone_is_not_throttling_and_no_samples_give_no_figures() {
        let idle = TelemetrySummary::of(&[sample(345, 70_000, 0x1)]);
        assert!(!idle.throttled());
        let none = TelemetrySummary::of(&[]);
        assert_eq!(none.samples, 0);
        assert_eq!(none.sm_clock_mhz, None);
        assert!(none.reasons.is_empty());
    }
}
