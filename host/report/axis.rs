use serde::{Deserialize, Serialize};

/// What a point's headline figure measures, and which way is better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Effective bandwidth, GB/s (1e9 bytes): the point's counted bytes over its time.
    Bandwidth,
    /// GFLOP/s (1e9 operations): the point's counted operations over its time.
    Gflops,
    /// Milliseconds per launch (or per pipeline run).
    Time,
    /// A figure the experiment measures directly (latency in ns, cycles, updates per second).
    Custom {
        name: String,
        unit: String,
        higher_is_better: bool,
    },
}

impl Metric {
    pub fn custom(name: &str, unit: &str, higher_is_better: bool) -> Self {
        Self::Custom {
            name: name.into(),
            unit: unit.into(),
            higher_is_better,
        }
    }

    pub fn unit(&self) -> &str {
        match self {
            Self::Bandwidth => "GB/s",
            Self::Gflops => "GFLOP/s",
            Self::Time => "ms",
            Self::Custom { unit, .. } => unit,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Self::Bandwidth => "effective bandwidth",
            Self::Gflops => "arithmetic throughput",
            Self::Time => "time",
            Self::Custom { name, .. } => name,
        }
    }

    pub fn higher_is_better(&self) -> bool {
        match self {
            Self::Bandwidth | Self::Gflops => true,
            Self::Time => false,
            Self::Custom { higher_is_better, .. } => *higher_is_better,
        }
    }

    /// The figure of one sample that took `ms`, for a point of `bytes` and `flops`;
    /// `None` for custom metrics (the experiment gives those directly).
    pub fn from_time(&self, ms: f64, bytes: u64, flops: Option<u64>) -> Option<f64> {
        let seconds = ms / 1e3;
        match self {
            Self::Bandwidth => Some(bytes as f64 / 1e9 / seconds),
            Self::Gflops => flops.map(|f| f as f64 / 1e9 / seconds),
            Self::Time => Some(ms),
            Self::Custom { .. } => None,
        }
    }
}

/// How an axis is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    Linear,
    /// Powers of two (sizes).
    Log2,
    /// Decades.
    Log10,
    /// Linear when the figures span less than a factor of 3 (where a log axis would flatten
    /// differences a reader is looking for), decades otherwise.
    Auto,
}

/// How the report draws the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlotKind {
    /// One line per series against the swept value.
    Lines,
    /// One source × destination grid per series (point keys are pairs).
    HeatMap,
    /// Tables only.
    None,
}

/// A horizontal line drawn across a plot (a theoretical peak, a published figure).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceLine {
    pub label: String,
    pub value: f64,
}

/// What an experiment's results mean on paper: the swept parameter, the
/// figure measured, the scales and the reference lines of its plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// Name (and unit) of the swept parameter: "offset (elements)", "size (KiB)".
    pub parameter: String,
    pub x_scale: Scale,
    pub metric: Metric,
    pub y_scale: Scale,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_lines: Vec<ReferenceLine>,
    pub plot: PlotKind,
}

impl Axis {
    /// A line plot of `metric` against `parameter`, linear in x, scaled automatically in y.
    pub fn lines(parameter: &str, metric: Metric) -> Self {
        Self {
            parameter: parameter.into(),
            x_scale: Scale::Linear,
            metric,
            y_scale: Scale::Auto,
            reference_lines: Vec::new(),
            plot: PlotKind::Lines,
        }
    }

    pub fn x_scale(mut self, scale: Scale) -> Self {
        self.x_scale = scale;
        self
    }

    pub fn y_scale(mut self, scale: Scale) -> Self {
        self.y_scale = scale;
        self
    }

    pub fn plot(mut self, plot: PlotKind) -> Self {
        self.plot = plot;
        self
    }

    pub fn reference(mut self, label: impl Into<String>, value: f64) -> Self {
        if value.is_finite() && value > 0.0 {
            self.reference_lines.push(ReferenceLine {
                label: label.into(),
                value,
            });
        }
        self
    }
}
