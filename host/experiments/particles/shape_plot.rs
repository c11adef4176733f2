//! The block-shape plot: update rate against the rows of the notes' table,
//! a line per kernel, implementation and population, with the notes' 75
//! frames per second (as updates of their 256 × 256 particles) for scale.

use super::population::population_variant;
use super::tables::notes_rate;
use super::{POPULATIONS, shape_of};
use crate::particle_scene::NOTES_BLOCK_SHAPE_FPS;
use crate::report::{ExperimentResult, PlotLine, PlotPoint, PlotSpec, ReferenceLine, Scale};
use crate::report::{Panel, XTicks};

/// The plot, or `None` when no block-shape point has a figure.
pub fn block_shape_plot(result: &ExperimentResult) -> Option<PlotSpec> {
    let variants: Vec<String> = POPULATIONS.iter().map(|&g| population_variant(g)).collect();
    let mut groups: Vec<(String, String)> = Vec::new();
    let mut lines = Vec::new();
    for series in result.series.iter().filter(|s| variants.contains(&s.key.variant)) {
        let group_key = (series.key.kernel.clone(), series.key.variant.clone());
        let group = groups.iter().position(|g| *g == group_key).unwrap_or_else(|| {
            groups.push(group_key);
            groups.len() - 1
        });
        let points: Vec<PlotPoint> = series
            .points
            .iter()
            .filter_map(|p| {
                shape_of(p.at)?;
                // The table's row r (1-based) is category r - 1.
                Some(PlotPoint::of((p.at.value()? - 1) as f64, p.value.as_ref()?))
            })
            .collect();
        if !points.is_empty() {
            lines.push(PlotLine {
                label: series.label.clone(),
                group,
                implementation: series.key.implementation,
                points,
            });
        }
    }
    if lines.is_empty() {
        return None;
    }
    let shapes: Vec<String> = NOTES_BLOCK_SHAPE_FPS
        .iter()
        .map(|((x, y), _)| format!("{x}×{y}"))
        .collect();
    Some(PlotSpec {
        suffix: "block-shapes".into(),
        title: "Particle updates per second by block shape".into(),
        x_label: "block shape (threads x × y), rows of the notes' table".into(),
        y_label: "G particle updates per second".into(),
        x_scale: Scale::Linear,
        y_scale: Scale::Log10,
        x_ticks: XTicks::Categories(shapes),
        panels: vec![Panel::of(
            lines,
            vec![ReferenceLine {
                label: "the notes: 75 fps × 256×256 particles".into(),
                value: notes_rate(75.0),
            }],
        )],
        ..PlotSpec::default()
    })
}
