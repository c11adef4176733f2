use std::collections::HashMap;

use super::{ExperimentResult, PlotKind, PointKey, ReferenceLine, Scale, pair_gpus};
use crate::testbed::Implementation;

/// One point of a plotted line: x, the median and the min–max whisker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotPoint {
    pub x: f64,
    pub y: f64,
    pub lo: f64,
    pub hi: f64,
}

/// One line of a plot. Lines of one kernel share a colour; the
/// implementation sets the dash and the marker, so twins stay apart even
/// where they lie on top of each other.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLine {
    pub label: String,
    /// Lines with the same group share a colour (twins of one kernel).
    pub group: usize,
    pub implementation: Implementation,
    pub points: Vec<PlotPoint>,
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
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    pub lines: Vec<PlotLine>,
    pub reference_lines: Vec<ReferenceLine>,
    pub heat_maps: Vec<HeatMap>,
}

impl PlotSpec {
    /// The experiment's main plot: every series against the swept value (or a
    /// heat map per series for matrices); `None` for table-only experiments.
    pub fn of(result: &ExperimentResult) -> Option<Self> {
        let axis = &result.axis;
        let y_label = format!("{} ({})", axis.metric.name(), axis.metric.unit());
        let mut spec = Self {
            suffix: String::new(),
            title: result.title.clone(),
            x_label: axis.parameter.clone(),
            y_label,
            x_scale: axis.x_scale,
            y_scale: axis.y_scale,
            lines: Vec::new(),
            reference_lines: axis.reference_lines.clone(),
            heat_maps: Vec::new(),
        };
        match axis.plot {
            PlotKind::None => return None,
            PlotKind::Lines => {
                let mut groups: HashMap<(&str, &str, &str), usize> = HashMap::new();
                let with_element = super::markdown::element_matters(result);
                for series in &result.series {
                    let group_key = (
                        series.key.kernel.as_str(),
                        series.key.element.as_str(),
                        series.key.variant.as_str(),
                    );
                    let next = groups.len();
                    let group = *groups.entry(group_key).or_insert(next);
                    let points: Vec<PlotPoint> = series
                        .points
                        .iter()
                        .filter_map(|p| {
                            let x = p.at.value()? as f64;
                            let v = p.value?;
                            Some(PlotPoint {
                                x,
                                y: v.median,
                                lo: v.min,
                                hi: v.max,
                            })
                        })
                        .collect();
                    if !points.is_empty() {
                        spec.lines.push(PlotLine {
                            label: super::markdown::series_name(series, with_element),
                            group,
                            implementation: series.key.implementation,
                            points,
                        });
                    }
                }
                if spec.lines.is_empty() {
                    return None;
                }
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
