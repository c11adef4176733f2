//! One SVG line plot per sweep (plotters, SVG backend only: no font libraries needed).

use plotters::prelude::*;

use super::guide_figures;
use crate::error::{Error, Result};
use crate::experiments::SweepResult;

/// Colours of the measured series (median line, min–max bars).
const SERIES_COLORS: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(127, 127, 127),
    RGBColor(227, 119, 194),
    RGBColor(140, 86, 75),
    RGBColor(0, 0, 0),
    RGBColor(255, 187, 120),
    RGBColor(148, 103, 189),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
];

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

/// Effective bandwidth of every series (median, with min–max bars) against the swept
/// parameter, with the theoretical peak and the guide's quoted figures as
/// horizontal reference lines.
pub fn sweep_svg(sweep: &SweepResult, theoretical_gbps: f64) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        // The streams experiment is about time (the guide's model predicts time); the others about bandwidth.
        let plot_time = sweep.experiment == "streams";
        // The general SGEMM is about arithmetic throughput.
        let plot_gflops = sweep.experiment == "sgemm";
        let measured: Vec<Vec<(i64, f64, f64, f64)>> = sweep
            .series
            .iter()
            .map(|series| {
                series
                    .points
                    .iter()
                    .filter(|p| p.verified)
                    .filter_map(|p| {
                        let s = if plot_time {
                            Some(p.time_ms)
                        } else if plot_gflops {
                            p.gflops()
                        } else {
                            p.effective_gbps
                        };
                        s.map(|g| (p.value, g.min, g.median, g.max))
                    })
                    .collect()
            })
            .collect();
        let theoretical_gbps = if plot_time || plot_gflops {
            0.0
        } else {
            theoretical_gbps
        };
        let values = sweep.values();
        let x_min = values.iter().copied().min().unwrap_or(0);
        let x_max = values.iter().copied().max().unwrap_or(1).max(x_min + 1);
        // Sizes spanning decades (transfers) are plotted on a log2 axis, labelled in the parameter's unit.
        let log_x = x_min > 0 && x_max / x_min >= 64;
        let to_x = move |v: i64| if log_x { (v as f64).log2() } else { v as f64 };
        let (x_lo, x_hi) = (to_x(x_min) - 0.5, to_x(x_max) + 0.5);
        // Log scale: today's TB/s and the guide's single-digit GB/s on one plot.
        let y_top = measured
            .iter()
            .flatten()
            .map(|m| m.3)
            .fold(theoretical_gbps, f64::max)
            .max(10.0)
            * 2.0;
        let y_bottom = if plot_time {
            measured
                .iter()
                .flatten()
                .map(|m| m.1)
                .fold(f64::MAX, f64::min)
                .min(y_top)
                * 0.5
        } else {
            1.0
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(sweep.title.as_str(), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x_lo..x_hi, (y_bottom..y_top).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc(sweep.parameter.as_str())
            .x_label_formatter(&|x| {
                if log_x {
                    format!("{:.0}", x.exp2())
                } else {
                    format!("{x:.0}")
                }
            })
            .y_desc(if plot_time {
                "time per pipeline run (ms; log scale)"
            } else if plot_gflops {
                "GFLOP/s (1e9 operations per second; log scale)"
            } else {
                "effective bandwidth (GB/s, 1e9 B; log scale)"
            })
            .y_label_formatter(&|y| {
                if *y < 10.0 {
                    format!("{y:.1}")
                } else {
                    format!("{y:.0}")
                }
            })
            .draw()
            .map_err(plot_error)?;

        if theoretical_gbps > 0.0 {
            chart
                .draw_series(LineSeries::new(
                    [(x_lo, theoretical_gbps), (x_hi, theoretical_gbps)],
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
                .draw_series(LineSeries::new([(x_lo, gbps), (x_hi, gbps)], color.stroke_width(1)))
                .map_err(plot_error)?
                .label(format!("guide: {} — {gbps} GB/s", figure.device))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color));
        }
        for (index, (series, points)) in sweep.series.iter().zip(&measured).enumerate() {
            let color = SERIES_COLORS[index % SERIES_COLORS.len()];
            chart
                .draw_series(points.iter().map(|&(x, lo, _, hi)| {
                    PathElement::new([(to_x(x), lo), (to_x(x), hi)], color.mix(0.5).stroke_width(3))
                }))
                .map_err(plot_error)?;
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|&(x, _, median, _)| (to_x(x), median)),
                    color.stroke_width(2),
                ))
                .map_err(plot_error)?
                .label(format!("{} [{}]", series.name, series.element))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&(x, _, median, _)| Circle::new((to_x(x), median), 3, color.filled())),
                )
                .map_err(plot_error)?;
        }
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
