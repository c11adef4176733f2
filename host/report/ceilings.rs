//! The physical ceilings of a GPU, derived from its attributes and stated
//! sources, and the check every figure of a report passes before it is shown
//! or graded: a figure beyond the ceiling of its unit is a bug in the
//! measurement, never a finding, and fails its point with the reason.
//!
//! An experiment says which unit bounds each of its figures through
//! [`SectionHooks::bounds`](super::SectionHooks::bounds); `run`, `render`
//! and `compare` apply the same check (a stored report from an older build,
//! or an edited one, gets its impossible figures flagged too).

use serde::{Deserialize, Serialize};

use super::{ExperimentResult, Point, Report, Status};
use crate::bandwidth::pcie_link_gbps;
use crate::stats::Summary;

/// How far past its ceiling a figure may read before it fails: clocks that
/// boost a little past the reported maximum, event resolution.
pub const CEILING_TOLERANCE: f64 = 0.03;

/// Bytes per clock an SM's shared memory serves: 32 banks of 4 bytes
/// (compute capability 3.x and later; the CUDA C Programming Guide,
/// "Shared Memory" of each compute capability).
pub const SHARED_BYTES_PER_CLOCK: f64 = 128.0;

/// Bytes per clock one SM can take from L2: the 64-byte path of an SM's
/// L1 to the L2 (NVIDIA's Volta, Ampere and Hopper tuning guides; A100's
/// whole L2 serves 5120 B/clk, 47 per SM). An upper bound per SM.
pub const L2_BYTES_PER_CLOCK_PER_SM: f64 = 64.0;

/// FP32 lanes per SM (results per clock per SM of an FP32 add, multiply or
/// fused multiply-add: the CUDA C Programming Guide's throughput table).
pub fn fp32_lanes_per_sm(compute_capability: (i32, i32)) -> Option<f64> {
    Some(match compute_capability {
        (7, _) | (8, 0) => 64.0,
        (8, 6..=9) | (9, 0) | (10, _) | (11, _) | (12, _) => 128.0,
        _ => return None,
    })
}

/// 32-bit integer add and logic operations per clock per SM (the same table).
pub fn int32_lanes_per_sm(compute_capability: (i32, i32)) -> Option<f64> {
    Some(match compute_capability {
        (7, _) | (8, _) | (9, 0) => 64.0,
        (10, _) | (11, _) | (12, _) => 128.0,
        _ => return None,
    })
}

/// One row of the ceilings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub unit: Unit,
    /// The ceiling, in `unit.measure()`.
    pub value: f64,
    /// Where it comes from: attributes and the stated source.
    pub source: String,
}

/// What bounds a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Device memory (GB/s): DRAM's theoretical bandwidth.
    Dram,
    /// The L2 cache (GB/s), for working sets that fit in it.
    L2,
    /// Shared memory, bytes per clock per SM.
    SharedMemory,
    /// FP32 arithmetic, GFLOP/s (an FMA counts two operations).
    Fp32,
    /// The GPU's host link, GB/s per direction.
    HostLink,
    /// The SM clock a kernel's `clock64` and `%globaltimer` readings imply
    /// (MHz): at most the maximum, and within 5% of what NVML saw during the
    /// experiment where it watched (two measures of one clock).
    SmClock,
    /// Operations per clock per SM, bounded by the issue rates of the
    /// instructions the kernel's SASS issues per operation (stored on the point).
    IssueRate,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Dram => "DRAM",
            Unit::L2 => "L2",
            Unit::SharedMemory => "shared memory",
            Unit::Fp32 => "FP32 arithmetic",
            Unit::HostLink => "the host link",
            Unit::SmClock => "the SM clock",
            Unit::IssueRate => "the SASS issue rates",
        }
    }

    pub fn measure(self) -> &'static str {
        match self {
            Unit::Dram | Unit::L2 | Unit::HostLink => "GB/s",
            Unit::SharedMemory => "B/clk/SM",
            Unit::Fp32 => "GFLOP/s",
            Unit::SmClock => "MHz",
            Unit::IssueRate => "op/clk/SM",
        }
    }
}

/// Which figure of a point a bound is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The point's headline figure (its value).
    Headline,
    /// One of its extra figures, by name.
    Extra(&'static str),
}

/// A figure of some points and the unit that bounds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    pub figure: Figure,
    /// The unit; [`Unit::Dram`] becomes [`Unit::L2`] at a point whose bytes
    /// per launch fit in L2 (`Point::bytes`).
    pub unit: Unit,
    /// A ceiling the point itself stores as an extra figure of this name (an
    /// issue rate derived from the kernel's SASS), in place of the device's.
    pub stored_ceiling: Option<&'static str>,
}

impl Bound {
    pub const fn headline(unit: Unit) -> Self {
        Self {
            figure: Figure::Headline,
            unit,
            stored_ceiling: None,
        }
    }

    pub const fn extra(name: &'static str, unit: Unit) -> Self {
        Self {
            figure: Figure::Extra(name),
            unit,
            stored_ceiling: None,
        }
    }

    /// The extra figure `name` bounded by the point's own extra figure `ceiling`
    /// (an issue rate: the instructions the kernel's SASS issues per operation over the pipes' rates).
    pub const fn stored(name: &'static str, ceiling: &'static str) -> Self {
        Self {
            figure: Figure::Extra(name),
            unit: Unit::IssueRate,
            stored_ceiling: Some(ceiling),
        }
    }
}

/// The ceilings of one GPU of a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceCeilings {
    pub ordinal: usize,
    /// The SM clock the per-clock ceilings use (MHz): the highest of the
    /// driver's maximum and what NVML saw during the run.
    pub sm_clock_mhz: f64,
    pub l2_bytes: u64,
    pub ceilings: Vec<Ceiling>,
    /// The SM clock NVML saw during each experiment on this GPU (MHz), where it watched.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub experiment_clocks: Vec<(String, Summary)>,
}

impl DeviceCeilings {
    /// The ceilings of `ordinal` from what `report` records of it; `None` if
    /// the report has no such device.
    pub fn of(report: &Report, ordinal: usize) -> Option<Self> {
        let device = report.device(ordinal)?;
        let nvml = report
            .telemetry
            .as_ref()
            .and_then(|t| t.devices.iter().find(|d| d.ordinal.0 == ordinal));
        let seen_mhz = nvml.and_then(|d| d.run.sm_clock_mhz.map(|s| s.max)).unwrap_or(0.0);
        let max_mhz = nvml.and_then(|d| d.facts.max_sm_clock_mhz).unwrap_or(0) as f64;
        let sm_clock_mhz = (device.sm_clock_khz as f64 / 1e3).max(seen_mhz).max(max_mhz);
        let sms = device.multiprocessors.max(0) as f64;
        let per_clock = |bytes: f64| sms * bytes * sm_clock_mhz * 1e6 / 1e9;
        let clock_text = format!("{sms:.0} SMs × {sm_clock_mhz:.0} MHz");
        let mut ceilings = Vec::new();
        if device.theoretical_bandwidth_gbps > 0.0 {
            ceilings.push(Ceiling {
                unit: Unit::Dram,
                value: device.theoretical_bandwidth_gbps,
                source: format!(
                    "memory clock {} MHz × {}-bit bus / 8 × 2 (the Best Practices Guide's formula)",
                    device.memory_clock_khz / 1000,
                    device.memory_bus_width_bits
                ),
            });
        }
        if sms > 0.0 && sm_clock_mhz > 0.0 {
            ceilings.push(Ceiling {
                unit: Unit::SmClock,
                value: sm_clock_mhz,
                source: "the highest of the driver's maximum SM clock, NVML's and what NVML saw in the run".into(),
            });
            ceilings.push(Ceiling {
                unit: Unit::L2,
                value: per_clock(L2_BYTES_PER_CLOCK_PER_SM),
                source: format!("{clock_text} × {L2_BYTES_PER_CLOCK_PER_SM} B/clk (each SM's path to L2)"),
            });
            ceilings.push(Ceiling {
                unit: Unit::SharedMemory,
                value: SHARED_BYTES_PER_CLOCK,
                source: "32 banks × 4 bytes per clock per SM (CUDA C Programming Guide, shared memory)".into(),
            });
            if let Some(lanes) = fp32_lanes_per_sm(device.compute_capability) {
                ceilings.push(Ceiling {
                    unit: Unit::Fp32,
                    value: sms * lanes * 2.0 * sm_clock_mhz * 1e6 / 1e9,
                    source: format!(
                        "{clock_text} × {lanes:.0} FP32 lanes × 2 (an FMA is two operations; cc {}.{})",
                        device.compute_capability.0, device.compute_capability.1
                    ),
                });
            }
        }
        let nvml_pcie = nvml.and_then(|d| d.facts.pcie.theoretical_gbps());
        let sysfs_pcie = device.pcie_link.as_deref().and_then(pcie_link_gbps);
        if let Some(gbps) = nvml_pcie.or(sysfs_pcie) {
            ceilings.push(Ceiling {
                unit: Unit::HostLink,
                value: gbps,
                source: if nvml_pcie.is_some() {
                    "PCIe generation and width from NVML, per direction".into()
                } else {
                    format!(
                        "PCIe link from sysfs ({}), per direction",
                        device.pcie_link.as_deref().unwrap_or("")
                    )
                },
            });
        }
        let experiment_clocks = nvml
            .map(|d| {
                d.experiments
                    .iter()
                    .filter_map(|e| Some((e.experiment.clone(), e.summary.sm_clock_mhz?)))
                    .collect()
            })
            .unwrap_or_default();
        Some(Self {
            ordinal,
            sm_clock_mhz,
            l2_bytes: device.l2_cache_bytes.max(0) as u64,
            ceilings,
            experiment_clocks,
        })
    }

    pub fn get(&self, unit: Unit) -> Option<&Ceiling> {
        self.ceilings.iter().find(|c| c.unit == unit)
    }

    /// The ceiling that bounds `bound`'s figure at `point`.
    fn ceiling_at(&self, bound: &Bound, point: &Point) -> Option<&Ceiling> {
        let unit = match bound.unit {
            Unit::Dram if point.bytes > 0 && point.bytes <= self.l2_bytes => Unit::L2,
            unit => unit,
        };
        self.get(unit)
    }

    /// Why `point` of `experiment` breaks a ceiling, if it does: the first
    /// figure of `bounds` whose highest sample is past its ceiling by more
    /// than [`CEILING_TOLERANCE`]; or an SM clock that NVML's readings during
    /// the experiment contradict by more than 5%.
    pub fn violation(&self, experiment: &str, bounds: &[Bound], point: &Point) -> Option<String> {
        for bound in bounds {
            if let (Some(ceiling_name), Figure::Extra(name)) = (bound.stored_ceiling, bound.figure)
                && let (Some(&figure), Some(&ceiling)) = (point.extra.get(name), point.extra.get(ceiling_name))
                && figure > ceiling * (1.0 + CEILING_TOLERANCE)
            {
                return Some(format!(
                    "{name} {} exceeds the {} its SASS allows ({ceiling_name}): a measurement error, not a finding",
                    short(figure),
                    short(ceiling)
                ));
            }
            if let (Unit::SmClock, Figure::Extra(name)) = (bound.unit, bound.figure)
                && let Some(mhz) = point.extra.get(name)
                && let Some((_, seen)) = self.experiment_clocks.iter().find(|(e, _)| e == experiment)
                && !(seen.min * 0.95..=seen.max * 1.05).contains(mhz)
            {
                return Some(format!(
                    "{name} {mhz:.0} MHz disagrees with the {:.0}–{:.0} MHz NVML saw during the experiment by more \
                     than 5%: clock64 and the global timer do not tell the same time",
                    seen.min, seen.max
                ));
            }
            let Some(ceiling) = self.ceiling_at(bound, point) else {
                continue;
            };
            let (name, figure) = match bound.figure {
                Figure::Headline => ("the figure", point.value.map(|v| v.max)),
                Figure::Extra(name) => (name, point.extra.get(name).copied()),
            };
            let Some(figure) = figure else { continue };
            if figure > ceiling.value * (1.0 + CEILING_TOLERANCE) {
                return Some(format!(
                    "{name} {} {} exceeds {}'s {} {} ({}): a measurement error, not a finding",
                    short(figure),
                    bound.unit.measure(),
                    bound.unit.name(),
                    short(ceiling.value),
                    bound.unit.measure(),
                    ceiling.source
                ));
            }
        }
        None
    }
}

fn short(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Fails every point of `result` whose figures break a ceiling of its
/// device (`bounds[i]`: the bounds of series `i`): the point keeps its key
/// and times, loses its figures, and says why. Returns how many points it failed.
pub fn check_result(result: &mut ExperimentResult, ceilings: &DeviceCeilings, bounds: &[Vec<Bound>]) -> usize {
    let mut failed = 0;
    let experiment = result.name.clone();
    for (series, bounds) in result.series.iter_mut().zip(bounds) {
        if bounds.is_empty() {
            continue;
        }
        for point in &mut series.points {
            if !point.status.is_ok() {
                continue;
            }
            if let Some(why) = ceilings.violation(&experiment, bounds, point) {
                point.status = Status::Failed(why);
                point.value = None;
                point.extra.clear();
                failed += 1;
            }
        }
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{PointKey, Work};

    pub fn h100_ceilings() -> DeviceCeilings {
        DeviceCeilings {
            ordinal: 0,
            sm_clock_mhz: 1980.0,
            l2_bytes: 50 << 20,
            ceilings: vec![
                Ceiling {
                    unit: Unit::Dram,
                    value: 3352.0,
                    source: "test".into(),
                },
                Ceiling {
                    unit: Unit::L2,
                    value: 16727.0,
                    source: "test".into(),
                },
                Ceiling {
                    unit: Unit::SharedMemory,
                    value: 128.0,
                    source: "test".into(),
                },
            ],
            experiment_clocks: vec![("bank-conflicts".into(), Summary::min_median_max(1970.0, 1980.0, 1980.0))],
        }
    }

    fn point(gbps: f64, bytes: u64) -> Point {
        Point::measured(PointKey::Value(1), &[gbps * 0.98, gbps], Work::bytes(1, bytes), None).unwrap()
    }

    #[test]
    fn a_figure_past_its_ceiling_fails_with_the_reason() {
        let c = h100_ceilings();
        let dram = [Bound::headline(Unit::Dram)];
        assert_eq!(c.violation("offset", &dram, &point(3000.0, 1 << 30)), None);
        assert_eq!(
            c.violation("offset", &dram, &point(3400.0, 1 << 30)),
            None,
            "within the tolerance"
        );
        let why = c.violation("offset", &dram, &point(3500.0, 1 << 30)).unwrap();
        assert!(why.contains("3500 GB/s exceeds DRAM's 3352 GB/s"), "{why}");
        assert_eq!(
            c.violation("offset", &dram, &point(5000.0, 1 << 20)),
            None,
            "a working set that fits in L2 is bounded by L2"
        );
        let mut shared = point(1.0, 0);
        shared.set_extra("B/clk/SM", 417.0);
        let why = c
            .violation(
                "bank-conflicts",
                &[Bound::extra("B/clk/SM", Unit::SharedMemory)],
                &shared,
            )
            .unwrap();
        assert!(
            why.contains("B/clk/SM 417 B/clk/SM exceeds shared memory's 128"),
            "{why}"
        );
        assert_eq!(
            c.violation("sgemm", &[Bound::headline(Unit::Fp32)], &point(1e9, 0)),
            None,
            "no such ceiling here"
        );
    }

    #[test]
    fn an_sm_clock_must_match_what_nvml_saw() {
        let c = h100_ceilings();
        let clock = [Bound::extra("SM clock", Unit::SmClock)];
        let mut p = point(1.0, 0);
        p.set_extra("SM clock", 1975.0);
        assert_eq!(c.violation("bank-conflicts", &clock, &p), None);
        p.set_extra("SM clock", 1500.0);
        let why = c.violation("bank-conflicts", &clock, &p).unwrap();
        assert!(why.contains("1970–1980 MHz NVML saw"), "{why}");
        assert_eq!(
            c.violation("latency", &clock, &p),
            None,
            "NVML did not watch that experiment"
        );
    }

    #[test]
    fn an_issue_rate_is_bounded_by_the_ceiling_its_sass_gives() {
        let c = h100_ceilings();
        let bound = [Bound::stored("op/clk/SM", "ceiling")];
        let mut p = point(1.0, 0);
        p.set_extra("op/clk/SM", 112.8);
        p.set_extra("ceiling", 113.8);
        assert_eq!(
            c.violation("instructions", &bound, &p),
            None,
            "i32 add: 112.8 within 113.8"
        );
        p.set_extra("op/clk/SM", 130.0);
        let why = c.violation("instructions", &bound, &p).unwrap();
        assert!(why.contains("130 exceeds the 114 its SASS allows"), "{why}");
        let mut no_ceiling = point(1.0, 0);
        no_ceiling.set_extra("op/clk/SM", 1e6);
        assert_eq!(
            c.violation("instructions", &bound, &no_ceiling),
            None,
            "no SASS: nothing to check against"
        );
    }

    #[test]
    fn the_lanes_follow_the_compute_capability() {
        assert_eq!(fp32_lanes_per_sm((9, 0)), Some(128.0));
        assert_eq!(fp32_lanes_per_sm((8, 0)), Some(64.0));
        assert_eq!(fp32_lanes_per_sm((6, 1)), None);
        assert_eq!(int32_lanes_per_sm((9, 0)), Some(64.0));
    }
}
