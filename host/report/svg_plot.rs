//! One SVG line plot per sweep (plotters, SVG backend only: no font libraries needed).

use plotters::prelude::*;

use super::guide_figures;
use crate::error::{Error, Result};
use crate::experiments::SweepResult;

/// Distinct colours for the guide's reference lines.
const GUIDE_COLORS: [RGBColor; 4] = [
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Plot(e.to_string())
}

/// Effective bandwidth (median, with min–max bars) against the swept
/// parameter, with the theoretical peak and the guide's quoted figures as
/// horizontal reference lines.
pub fn sweep_svg(sweep: &SweepResult, theoretical_gbps: f64) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let measured: Vec<(i64, f64, f64, f64)> = sweep
            .points
            .iter()
            .filter_map(|p| p.effective_gbps.map(|g| (p.value, g.min, g.median, g.max)))
            .collect();
        let x_min = sweep.points.iter().map(|p| p.value).min().unwrap_or(0);
        let x_max = sweep.points.iter().map(|p| p.value).max().unwrap_or(1).max(x_min + 1);
        let y_top = measured.iter().map(|m| m.3).fold(theoretical_gbps, f64::max).max(1.0) * 1.1;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{} ({})", sweep.title, sweep.kernel), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x_min as f64 - 0.5..x_max as f64 + 0.5, (1.0..y_top).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc(sweep.parameter.as_str())
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("effective bandwidth (GB/s, 1e9 B; log scale)")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(plot_error)?;

        if theoretical_gbps > 0.0 {
            chart
                .draw_series(LineSeries::new(
                    [
                        (x_min as f64 - 0.5, theoretical_gbps),
                        (x_max as f64 + 0.5, theoretical_gbps),
                    ],
                    BLACK.stroke_width(1),
                ))
                .map_err(plot_error)?
                .label(format!("theoretical peak {theoretical_gbps:.0} GB/s"))
                .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK));
        }
        for (i, figure) in guide_figures(&sweep.experiment).iter().enumerate() {
            let Some(gbps) = figure.gbps else { continue };
            let color = GUIDE_COLORS[i % GUIDE_COLORS.len()];
            chart
                .draw_series(LineSeries::new(
                    [(x_min as f64 - 0.5, gbps), (x_max as f64 + 0.5, gbps)],
                    color.stroke_width(1),
                ))
                .map_err(plot_error)?
                .label(format!("guide: {} — {gbps} GB/s", figure.device))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color));
        }
        chart
            .draw_series(measured.iter().map(|&(x, lo, _, hi)| {
                PathElement::new([(x as f64, lo), (x as f64, hi)], BLUE.mix(0.5).stroke_width(3))
            }))
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(
                measured.iter().map(|&(x, _, median, _)| (x as f64, median)),
                BLUE.stroke_width(2),
            ))
            .map_err(plot_error)?
            .label("measured, median (bars: min–max)")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(
                measured
                    .iter()
                    .map(|&(x, _, median, _)| Circle::new((x as f64, median), 3, BLUE.filled())),
            )
            .map_err(plot_error)?;
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
