use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Axis, Metric, PointKey, SeriesKey, Spread, Status};
use crate::facts::Implementation;
use crate::stats::Summary;

/// One measured (or modelled) point of a series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub at: PointKey,
    pub status: Status,
    /// The experiment's headline figure ([`Axis::metric`]) over the samples.
    /// `None` unless the point is ok: no figure is shown from a failed check.
    pub value: Option<Summary>,
    /// Milliseconds per launch over the samples (a model's prediction for model series).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<Summary>,
    /// Elements processed per launch.
    #[serde(default)]
    pub elements: u64,
    /// Bytes counted per launch (how, the experiment's `byte_counting` says).
    #[serde(default)]
    pub bytes: u64,
    /// Floating-point operations per launch, for compute kernels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flops: Option<u64>,
    /// Further figures of the point, by name with unit ("DRAM-sector GB/s", "GFLOP/s", "% of peak").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, f64>,
    /// The GPU's hardware counters over one more, untimed launch (`run --counters`):
    /// CUPTI metric name → value for that launch. Empty where none were collected.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, f64>,
}

/// The work one launch does, for deriving figures from its time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub elements: u64,
    pub bytes: u64,
    pub flops: Option<u64>,
}

impl Work {
    pub fn bytes(elements: u64, bytes: u64) -> Self {
        Self {
            elements,
            bytes,
            flops: None,
        }
    }

    pub fn with_flops(mut self, flops: u64) -> Self {
        self.flops = Some(flops);
        self
    }
}

impl Point {
    /// A point from per-launch times: `metric` turns each sample into its
    /// figure; a `failure` withholds every figure. `None` without finite samples.
    pub fn timed(at: PointKey, metric: &Metric, work: Work, times_ms: &[f64], failure: Option<String>) -> Option<Self> {
        let time_ms = Summary::of(times_ms)?;
        let figures: Option<Vec<f64>> = times_ms
            .iter()
            .map(|&ms| metric.from_time(ms, work.bytes, work.flops))
            .collect();
        let status = match failure {
            Some(why) => Status::Failed(why),
            None => Status::Ok,
        };
        let value = if status.is_ok() {
            figures.as_deref().and_then(Summary::of)
        } else {
            None
        };
        let mut point = Self {
            at,
            status,
            value,
            time_ms: Some(time_ms),
            elements: work.elements,
            bytes: work.bytes,
            flops: work.flops,
            extra: BTreeMap::new(),
            counters: BTreeMap::new(),
        };
        // The two derived figures every compute point can show beside its metric.
        if point.status.is_ok() {
            if !matches!(metric, Metric::Bandwidth) && work.bytes > 0 {
                point.set_extra("GB/s", work.bytes as f64 / 1e9 / (time_ms.median / 1e3));
            }
            if let (Some(flops), false) = (work.flops, matches!(metric, Metric::Gflops)) {
                point.set_extra("GFLOP/s", flops as f64 / 1e9 / (time_ms.median / 1e3));
            }
        }
        Some(point)
    }

    /// A point whose figure was measured directly (latency, cycles): `samples`
    /// in the metric's unit; a `failure` withholds them.
    pub fn measured(at: PointKey, samples: &[f64], work: Work, failure: Option<String>) -> Option<Self> {
        let summary = Summary::of(samples)?;
        let status = match failure {
            Some(why) => Status::Failed(why),
            None => Status::Ok,
        };
        Some(Self {
            at,
            value: status.is_ok().then_some(summary),
            status,
            time_ms: None,
            elements: work.elements,
            bytes: work.bytes,
            flops: work.flops,
            extra: BTreeMap::new(),
            counters: BTreeMap::new(),
        })
    }

    /// A point that was not measured, with why (waived for this pair, not run).
    pub fn unmeasured(at: PointKey, status: Status) -> Self {
        Self {
            at,
            status,
            value: None,
            time_ms: None,
            elements: 0,
            bytes: 0,
            flops: None,
            extra: BTreeMap::new(),
            counters: BTreeMap::new(),
        }
    }

    /// Records a further figure; non-finite figures are dropped, and failed points keep none.
    pub fn set_extra(&mut self, name: &str, value: f64) {
        if value.is_finite() && self.status.is_ok() {
            self.extra.insert(name.to_string(), value);
        }
    }

    pub fn with_extra(mut self, name: &str, value: f64) -> Self {
        self.set_extra(name, value);
        self
    }

    /// The median of the headline figure, if the point is ok.
    pub fn median(&self) -> Option<f64> {
        self.value.map(|v| v.median)
    }

    /// The median time per launch, if the point is ok.
    pub fn median_ms(&self) -> Option<f64> {
        self.time_ms.filter(|_| self.status.is_ok()).map(|t| t.median)
    }

    /// The headline figure's spread over the samples, if the point is ok.
    pub fn spread(&self) -> Option<Spread> {
        self.value.filter(|_| self.status.is_ok()).map(Spread::of)
    }

    /// The time per launch's spread over the samples, if the point is ok.
    pub fn time_spread(&self) -> Option<Spread> {
        self.time_ms.filter(|_| self.status.is_ok()).map(Spread::of)
    }
}

/// How many times better `a`'s headline figure is than `b`'s (a ratio of
/// figures where higher is better, of times otherwise), with its spread;
/// `None` unless both are ok.
pub fn better_by(metric: &Metric, a: &Point, b: &Point) -> Option<Spread> {
    let (a, b) = (
        a.value.filter(|_| a.status.is_ok())?,
        b.value.filter(|_| b.status.is_ok())?,
    );
    Some(if metric.higher_is_better() {
        Spread::ratio(a, b)
    } else {
        Spread::ratio(b, a)
    })
}

/// How many times longer `a` takes than `b` per launch, with its spread; `None` unless both are ok.
pub fn slower_by(a: &Point, b: &Point) -> Option<Spread> {
    let (a, b) = (
        a.time_ms.filter(|_| a.status.is_ok())?,
        b.time_ms.filter(|_| b.status.is_ok())?,
    );
    Some(Spread::ratio(a, b))
}

/// One kernel (or copy, or model) measured along the experiment's axis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub key: SeriesKey,
    /// How tables and plots name it; never used to find it.
    pub label: String,
    pub points: Vec<Point>,
}

impl Series {
    pub fn new(key: SeriesKey, label: impl Into<String>) -> Self {
        Self {
            key,
            label: label.into(),
            points: Vec::new(),
        }
    }

    /// A series labelled `kernel · implementation`.
    pub fn of(key: SeriesKey) -> Self {
        let label = format!("{} · {}", key.kernel, key.implementation.label());
        Self::new(key, label)
    }

    pub fn point(&self, at: PointKey) -> Option<&Point> {
        self.points.iter().find(|p| p.at == at)
    }

    pub fn at(&self, value: i64) -> Option<&Point> {
        self.point(PointKey::Value(value))
    }

    /// Median of the headline figure at `value`, if measured and ok.
    pub fn median_at(&self, value: i64) -> Option<f64> {
        self.at(value).and_then(Point::median)
    }

    /// The point with the worst median figure (lowest where higher is better).
    pub fn worst(&self, metric: &Metric) -> Option<&Point> {
        let ok = self.points.iter().filter(|p| p.median().is_some());
        let order = |a: &&Point, b: &&Point| a.median().unwrap_or(0.0).total_cmp(&b.median().unwrap_or(0.0));
        if metric.higher_is_better() {
            ok.min_by(order)
        } else {
            ok.max_by(order)
        }
    }

    /// The typical one of the points `keep` selects: the point whose median
    /// is the middle of theirs (the lower middle of an even count). Unlike
    /// [`Series::worst`], one noisy point among many cannot decide it.
    pub fn typical(&self, keep: impl Fn(&Point) -> bool) -> Option<&Point> {
        let mut kept: Vec<&Point> = self.points.iter().filter(|p| p.median().is_some() && keep(p)).collect();
        kept.sort_by(|a, b| a.median().unwrap_or(0.0).total_cmp(&b.median().unwrap_or(0.0)));
        kept.get(kept.len().checked_sub(1)? / 2).copied()
    }
}

/// A text the experiment wants next to its tables: a waived implementation, a setting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiver {
    /// What was left out ("CUDA C twins", "cuBLAS", "the mapped-memory series").
    pub what: String,
    pub reason: String,
}

impl Waiver {
    /// The waiver of a family's twins in `implementation` ("CUDA C twins"), left out for `reason`.
    pub fn of_twins(implementation: Implementation, reason: String) -> Self {
        Self {
            what: format!("{} twins", implementation.label()),
            reason,
        }
    }
}

/// Everything one experiment measured on one device (or on the node).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentResult {
    /// The name `--only` takes.
    pub name: String,
    pub title: String,
    /// Where in the source documents the experiment comes from.
    pub source: String,
    /// The GPU it ran on; `None` for experiments of the whole node (pairs of GPUs).
    pub device: Option<usize>,
    pub status: Status,
    pub axis: Axis,
    /// How the bytes behind bandwidth figures are counted.
    pub byte_counting: String,
    /// The setup a reader needs (buffer sizes, block shapes, shapes of matrices).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<String>,
    pub series: Vec<Series>,
    /// Implementations or series left out, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waived: Vec<Waiver>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Files the experiment wrote beside the report (pictures, animations), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<Artifact>,
}

/// A file an experiment wrote into the report's folder while it ran (`render` never rewrites it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// The file name, in the report's folder.
    pub file: String,
    /// What it shows.
    pub caption: String,
    /// Whether report.md shows it inline (a picture) or links it.
    pub inline: bool,
}

impl ExperimentResult {
    /// Records each (what, why) left out.
    pub fn waive(&mut self, waived: impl IntoIterator<Item = (String, String)>) {
        self.waived
            .extend(waived.into_iter().map(|(what, reason)| Waiver { what, reason }));
    }

    /// A series by key.
    pub fn series(&self, key: &SeriesKey) -> Option<&Series> {
        self.series.iter().find(|s| &s.key == key)
    }

    /// The first series of `kernel` by `implementation` (any element, variant or device).
    pub fn series_of(&self, kernel: &str, implementation: Implementation) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.key.kernel == kernel && s.key.implementation == implementation)
    }

    /// The first series of `kernel` by `implementation` with `variant`.
    pub fn variant(&self, kernel: &str, implementation: Implementation, variant: &str) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.key.kernel == kernel && s.key.implementation == implementation && s.key.variant == variant)
    }

    /// The distinct point keys, in the order the series measured them.
    pub fn point_keys(&self) -> Vec<PointKey> {
        let mut seen = std::collections::HashSet::new();
        self.series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.at))
            .filter(|at| seen.insert(*at))
            .collect()
    }

    /// The swept values of scalar points, in order.
    pub fn values(&self) -> Vec<i64> {
        self.point_keys().into_iter().filter_map(PointKey::value).collect()
    }

    /// Every point that failed its check, with its series.
    pub fn failures(&self) -> impl Iterator<Item = (&Series, &Point)> {
        self.series
            .iter()
            .flat_map(|s| s.points.iter().filter(|p| p.status.is_failed()).map(move |p| (s, p)))
    }

    /// Whether any point failed or the experiment did.
    pub fn has_failures(&self) -> bool {
        self.status.is_failed() || self.failures().next().is_some()
    }

    /// Pairs (Rust series, twin series) of every kernel that another implementation also ran,
    /// in the order of the Rust series, then of the twins (found through one index: linear in
    /// the number of series).
    pub fn twin_pairs(&self) -> Vec<(&Series, &Series)> {
        type Kernel<'a> = (&'a str, &'a str, &'a str, super::Devices);
        fn kernel(s: &Series) -> Kernel<'_> {
            (&s.key.kernel, &s.key.element, &s.key.variant, s.key.devices)
        }
        let mut by_kernel: std::collections::HashMap<Kernel<'_>, Vec<&Series>> = std::collections::HashMap::new();
        for series in &self.series {
            by_kernel.entry(kernel(series)).or_default().push(series);
        }
        self.series
            .iter()
            .filter(|s| s.key.implementation == Implementation::Rust)
            .flat_map(|rust| {
                by_kernel[&kernel(rust)]
                    .iter()
                    .filter(move |other| other.key.is_twin_of(&rust.key))
                    .map(move |other| (rust, *other))
            })
            .collect()
    }

    /// The figure of the Rust series over its twin's at `at` (higher is better for Rust
    /// whatever the metric: a time ratio is inverted).
    pub fn rust_over(&self, rust: &Series, other: &Series, at: PointKey) -> Option<f64> {
        let r = rust.point(at)?.median()?;
        let o = other.point(at)?.median()?;
        if r <= 0.0 || o <= 0.0 {
            return None;
        }
        Some(if self.axis.metric.higher_is_better() {
            r / o
        } else {
            o / r
        })
    }
}
