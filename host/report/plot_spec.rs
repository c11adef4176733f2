//! What a plot shows, independent of how it is drawn: panels of lines
//! against a shared x axis (sizes, counts or named categories), or heat maps
//! of GPU pairs.

use std::collections::HashMap;

use super::{ExperimentResult, PlotKind, PointKey, ReferenceLine, Scale, pair_gpus};
use crate::facts::Implementation;

/// One point of a plotted line: x, the median and the min–max whisker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotPoint {
    pub x: f64,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
    /// Drawn as a marker only, not joined to the points beside it (a different case on
    /// the same axis: sgemm's unaligned 4095 between 2048 and 4096).
    pub alone: bool,
}

impl PlotPoint {
    pub fn new(x: f64, y: f64, lo: f64, hi: f64) -> Self {
        Self {
            x,
            y,
            lo,
            hi,
            alone: false,
        }
    }

    /// The point at `x` of a median and its min–max.
    pub fn of(x: f64, summary: &crate::stats::Summary) -> Self {
        Self::new(x, summary.median, summary.min, summary.max)
    }
}

/// One line of a plot. Lines of one group share a colour (twins of one
/// kernel); the implementation sets the dash; every legend entry gets its own
/// marker, so lines stay apart even where they lie on top of each other.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLine {
    pub label: String,
    /// Lines with the same group share a colour (twins of one kernel).
    pub group: usize,
    pub implementation: Implementation,
    pub points: Vec<PlotPoint>,
}

/// One panel: lines against the plot's x axis, on a y axis of their own.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Panel {
    /// Above the panel; empty for a plot of one panel.
    pub title: String,
    pub lines: Vec<PlotLine>,
    /// Horizontal lines across this panel (a theoretical peak, a published figure).
    pub reference_lines: Vec<ReferenceLine>,
}

impl Panel {
    /// An untitled panel (the plot's only one).
    pub fn of(lines: Vec<PlotLine>, reference_lines: Vec<ReferenceLine>) -> Self {
        Self {
            title: String::new(),
            lines,
            reference_lines,
        }
    }
}

/// How the x axis is labelled.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum XTicks {
    /// Numbers (whole steps: the swept values are integers).
    #[default]
    Numbers,
    /// Sizes: x counts units of `unit_bytes` bytes, labelled "4 KiB", "1 MiB", "1 GiB".
    Bytes { unit_bytes: u64 },
    /// Named cases: x is the index into these names; points are never joined across them.
    Categories(Vec<String>),
}

/// One source × destination grid (a matrix of GPU pairs).
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    pub title: String,
    /// The GPUs (ordinals) on each side, in order: the rows and the columns.
    pub gpus: Vec<usize>,
    /// `(source, destination, median)` by ordinal; `None` where no figure exists.
    pub cells: Vec<(usize, usize, Option<f64>)>,
}

/// Everything an SVG plot shows, independent of how it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotSpec {
    /// Appended to the experiment's file name (`offset-relative.svg`); empty for the main plot.
    pub suffix: String,
    pub title: String,
    /// The x axis' name and unit ("size", "offset (elements)").
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    pub x_ticks: XTicks,
    /// Side by side, sharing the x axis and the legend; one for most plots.
    pub panels: Vec<Panel>,
    pub heat_maps: Vec<HeatMap>,
}

impl Default for PlotSpec {
    fn default() -> Self {
        Self {
            suffix: String::new(),
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            x_scale: Scale::Linear,
            y_scale: Scale::Auto,
            x_ticks: XTicks::Numbers,
            panels: Vec::new(),
            heat_maps: Vec::new(),
        }
    }
}

/// How an axis parameter's unit reads as bytes: "size (KiB)" counts KiB.
fn byte_unit(parameter: &str) -> Option<u64> {
    let unit = parameter.rsplit_once('(')?.1.trim_end_matches(')').trim();
    match unit {
        "bytes" | "B" => Some(1),
        "KiB" => Some(1 << 10),
        "MiB" => Some(1 << 20),
        "GiB" => Some(1 << 30),
        _ => None,
    }
}

/// `line`'s points as a plot's: each ok point's median and min–max at its swept value.
pub fn series_points(series: &super::Series) -> Vec<PlotPoint> {
    series
        .points
        .iter()
        .filter_map(|p| Some(PlotPoint::of(p.at.value()? as f64, p.value.as_ref()?)))
        .collect()
}

impl PlotLine {
    /// `series` as a line of `group`: its points ([`series_points`]) with x
    /// through `x`, its label and implementation; `None` where no point has a value.
    pub fn of_series(series: &super::Series, group: usize, x: impl Fn(f64) -> f64) -> Option<Self> {
        let points: Vec<PlotPoint> = series_points(series)
            .into_iter()
            .map(|p| PlotPoint { x: x(p.x), ..p })
            .collect();
        (!points.is_empty()).then(|| Self {
            label: series.label.clone(),
            group,
            implementation: series.key.implementation,
            points,
        })
    }
}

impl PlotSpec {
    /// Every line of every panel.
    pub fn lines(&self) -> impl Iterator<Item = &PlotLine> {
        self.panels.iter().flat_map(|p| p.lines.iter())
    }

    /// The x axis of `parameter` ("size (KiB)" gets size labels).
    pub fn x_ticks_of(parameter: &str) -> XTicks {
        match byte_unit(parameter) {
            Some(unit_bytes) => XTicks::Bytes { unit_bytes },
            None => XTicks::Numbers,
        }
    }

    /// The experiment's main plot: every series against the swept value (or a
    /// heat map per series for matrices); `None` for table-only experiments.
    pub fn of(result: &ExperimentResult) -> Option<Self> {
        let axis = &result.axis;
        let y_label = format!("{} ({})", axis.metric.name(), axis.metric.unit());
        let mut spec = Self {
            title: result.title.clone(),
            x_label: axis.parameter.clone(),
            y_label,
            x_scale: axis.x_scale,
            y_scale: axis.y_scale,
            x_ticks: Self::x_ticks_of(&axis.parameter),
            ..Self::default()
        };
        match axis.plot {
            PlotKind::None => return None,
            PlotKind::Lines => {
                let mut groups: HashMap<(&str, &str, &str), usize> = HashMap::new();
                let with_element = super::markdown::element_matters(result);
                let mut lines = Vec::new();
                for series in &result.series {
                    let group_key = (
                        series.key.kernel.as_str(),
                        series.key.element.as_str(),
                        series.key.variant.as_str(),
                    );
                    let next = groups.len();
                    let group = *groups.entry(group_key).or_insert(next);
                    let points = series_points(series);
                    if !points.is_empty() {
                        lines.push(PlotLine {
                            label: super::markdown::series_name(series, with_element),
                            group,
                            implementation: series.key.implementation,
                            points,
                        });
                    }
                }
                if lines.is_empty() {
                    return None;
                }
                spec.panels = vec![Panel::of(lines, axis.reference_lines.clone())];
            }
            PlotKind::HeatMap => {
                for series in &result.series {
                    let cells: Vec<(usize, usize, Option<f64>)> = series
                        .points
                        .iter()
                        .filter_map(|p| match p.at {
                            PointKey::Pair { src, dst } => Some((src, dst, p.median())),
                            PointKey::Value(_) => None,
                        })
                        .collect();
                    if !cells.is_empty() {
                        spec.heat_maps.push(HeatMap {
                            title: series.label.clone(),
                            gpus: pair_gpus(series),
                            cells,
                        });
                    }
                }
                if spec.heat_maps.is_empty() {
                    return None;
                }
            }
        }
        Some(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::{PlotLine, PlotSpec, XTicks, byte_unit};
    use crate::facts::Implementation;
    use crate::report::{Point, PointKey, Series, SeriesKey, Status, Work};

    #[test]
    fn a_series_line_has_its_measured_points_with_x_mapped() {
        let mut series = Series::new(SeriesKey::new("k", Implementation::CudaC, "f32"), "k · CUDA C");
        assert_eq!(PlotLine::of_series(&series, 0, |x| x), None, "no points: no line");
        series.points.extend(Point::measured(
            PointKey::Value(2048),
            &[3.0, 1.0, 2.0],
            Work::default(),
            None,
        ));
        series
            .points
            .push(Point::unmeasured(PointKey::Value(4096), Status::Failed("bad".into())));
        let line = PlotLine::of_series(&series, 3, |x| x / 1024.0).expect("one measured point");
        assert_eq!((line.label.as_str(), line.group), ("k · CUDA C", 3));
        assert_eq!(line.implementation, Implementation::CudaC);
        assert_eq!(line.points.len(), 1, "the failed point is not drawn");
        let p = line.points[0];
        assert_eq!((p.x, p.y, p.lo, p.hi), (2.0, 2.0, 1.0, 3.0));
    }

    #[test]
    fn size_axes_are_told_by_their_unit() {
        assert_eq!(byte_unit("size (KiB)"), Some(1024));
        assert_eq!(byte_unit("working set (bytes)"), Some(1));
        assert_eq!(byte_unit("offset (elements)"), None);
        assert_eq!(byte_unit("buffer MiB"), None);
        assert_eq!(
            PlotSpec::x_ticks_of("size (MiB)"),
            XTicks::Bytes { unit_bytes: 1 << 20 }
        );
    }
}
