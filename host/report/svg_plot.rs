//! SVG plots written by hand: no plotting crate, no font libraries.
//!
//! What a reader needs and the plots guarantee: the legend sits outside the
//! data; implementations differ by dash and marker, not colour alone (the
//! Rust line and its CUDA C twin often coincide); log axes carry labelled
//! ticks at every decade and between; a narrow range gets a linear axis so
//! its differences stay visible. Every loop here is bounded by the number of
//! points or by a fixed tick count, whatever the input values are.

use std::fmt::Write;

use super::plot_spec::{HeatMap, PlotLine, PlotSpec};
use super::{ReferenceLine, Scale};
use crate::testbed::Implementation;

const WIDTH: f64 = 1000.0;
const PLOT_LEFT: f64 = 84.0;
const PLOT_TOP: f64 = 48.0;
const PLOT_WIDTH: f64 = 560.0;
const PLOT_HEIGHT: f64 = 400.0;
const LEGEND_LEFT: f64 = PLOT_LEFT + PLOT_WIDTH + 28.0;
const LEGEND_ROW: f64 = 18.0;
/// At most this many ticks per axis, whatever the range.
const MAX_TICKS: usize = 24;

/// Colour-blind-safe palette (Okabe–Ito, then Tableau), one per kernel.
const PALETTE: [&str; 12] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22",
    "#9467BD", "#17BECF",
];

/// Colours of the reference lines (peaks, published figures), apart from the series'.
const REFERENCE_COLOURS: [&str; 4] = ["#B2182B", "#6A3D9A", "#4D4D4D", "#8C510A"];

/// Dash pattern of an implementation's lines.
fn dash(implementation: Implementation) -> &'static str {
    match implementation {
        Implementation::Rust => "",
        Implementation::CudaC => "9 4",
        Implementation::OpenClC => "2 3",
        Implementation::Cublas => "10 3 2 3",
        Implementation::CopyEngine => "16 5",
        Implementation::Model => "4 4",
    }
}

fn colour(line: &PlotLine) -> &'static str {
    if line.implementation == Implementation::Model {
        "#555555"
    } else {
        PALETTE[line.group % PALETTE.len()]
    }
}

/// The marker of an implementation, centred on (x, y).
fn marker(implementation: Implementation, x: f64, y: f64, colour: &str) -> String {
    match implementation {
        Implementation::Rust => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{colour}"/>"#),
        Implementation::CudaC => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="white" stroke="{colour}" stroke-width="1.5"/>"#,
            x - 3.5,
            y - 3.5
        ),
        Implementation::OpenClC => format!(
            r#"<path d="M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" fill="white" stroke="{colour}" stroke-width="1.5"/>"#,
            y - 4.5,
            x + 4.5,
            y + 3.5,
            x - 4.5,
            y + 3.5
        ),
        Implementation::Cublas => format!(
            r#"<path d="M{x:.1},{:.1} L{:.1},{y:.1} L{x:.1},{:.1} L{:.1},{y:.1} Z" fill="{colour}"/>"#,
            y - 5.0,
            x + 5.0,
            y + 5.0,
            x - 5.0
        ),
        Implementation::CopyEngine => format!(
            r#"<path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="{colour}" stroke-width="2"/>"#,
            x - 4.0,
            y - 4.0,
            x + 4.0,
            y + 4.0,
            x - 4.0,
            y + 4.0,
            x + 4.0,
            y - 4.0
        ),
        Implementation::Model => String::new(),
    }
}

fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    super::text_escape::xml(text)
}

/// A tick label: few digits, no float noise.
pub fn format_tick(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude >= 1e6 {
        format!("{:.0e}", value)
    } else if magnitude >= 100.0 || value == value.round() {
        format!("{value:.0}")
    } else if magnitude >= 1.0 {
        format!("{value:.1}")
    } else if magnitude >= 0.01 {
        format!("{value:.2}")
    } else {
        format!("{value:.1e}")
    }
}

/// A mapping from data to pixels along one axis.
#[derive(Clone, Copy, Debug)]
struct AxisMap {
    scale: Scale,
    lo: f64,
    hi: f64,
}

impl AxisMap {
    /// The transformed coordinate (log for log scales).
    fn t(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Log2 => v.max(f64::MIN_POSITIVE).log2(),
            Scale::Log10 => v.max(f64::MIN_POSITIVE).log10(),
            Scale::Linear | Scale::Auto => v,
        }
    }

    /// 0..1 along the axis.
    fn fraction(&self, v: f64) -> f64 {
        let (lo, hi) = (self.t(self.lo), self.t(self.hi));
        if hi > lo {
            ((self.t(v) - lo) / (hi - lo)).clamp(-0.05, 1.05)
        } else {
            0.5
        }
    }

    /// Tick positions and whether each gets a label.
    fn ticks(&self) -> Vec<(f64, bool)> {
        match self.scale {
            Scale::Log10 => log10_ticks(self.lo, self.hi),
            Scale::Log2 => {
                let (a, b) = (self.lo.log2().ceil() as i64, self.hi.log2().floor() as i64);
                let count = (b - a + 1).max(0) as usize;
                let every = count.div_ceil(12).max(1);
                (a..=b)
                    .take(MAX_TICKS * every)
                    .enumerate()
                    .filter(|(i, _)| i % every == 0 || count <= MAX_TICKS)
                    .map(|(i, e)| (2f64.powi(e as i32), i % every == 0))
                    .take(MAX_TICKS)
                    .collect()
            }
            Scale::Linear | Scale::Auto => linear_ticks(self.lo, self.hi),
        }
    }
}

/// Ticks at 1, 2 and 5 × each decade inside [lo, hi], all labelled when the
/// range spans at most four decades, else labels on decades only.
fn log10_ticks(lo: f64, hi: f64) -> Vec<(f64, bool)> {
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let decades = (last - first).clamp(0, 40);
    let label_all = decades <= 4;
    let mut ticks = Vec::new();
    for d in first..=first + decades {
        for m in [1.0, 2.0, 5.0] {
            let v = m * 10f64.powi(d);
            if v >= lo * 0.999 && v <= hi * 1.001 && ticks.len() < MAX_TICKS * 2 {
                ticks.push((v, label_all || m == 1.0));
            }
        }
    }
    ticks
}

/// About six ticks at a 1-2-5 step.
fn linear_ticks(lo: f64, hi: f64) -> Vec<(f64, bool)> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return vec![(lo, true)];
    }
    let raw = span / 6.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| span / s <= 8.0)
        .unwrap_or(10.0 * power);
    let start = (lo / step).ceil() * step;
    (0..MAX_TICKS)
        .map(|i| start + i as f64 * step)
        .take_while(|v| *v <= hi + step * 1e-9)
        .map(|v| (v, true))
        .collect()
}

/// The y range and scale of the data and reference lines: a log axis when
/// `Auto` finds more than a factor of 3 between them, padded to whole ticks.
fn y_axis(spec: &PlotSpec) -> AxisMap {
    let values: Vec<f64> = spec
        .lines
        .iter()
        .flat_map(|l| l.points.iter().flat_map(|p| [p.lo, p.hi, p.y]))
        .chain(spec.reference_lines.iter().map(|r| r.value))
        .filter(|v| v.is_finite())
        .collect();
    let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    let (min, max) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
    if !min.is_finite() {
        return AxisMap {
            scale: Scale::Linear,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let log = match spec.y_scale {
        Scale::Log10 | Scale::Log2 => !positive.is_empty(),
        Scale::Linear => false,
        Scale::Auto => min > 0.0 && max / min > 3.0,
    };
    if log {
        let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = positive.iter().copied().fold(0.0, f64::max);
        AxisMap {
            scale: Scale::Log10,
            lo: lo / 1.25,
            hi: hi * 1.25,
        }
    } else {
        // A narrow range is shown as it is (the differences are the point);
        // a wide one starts at zero.
        let pad = ((max - min) * 0.08).max(max.abs() * 1e-3).max(1e-12);
        let lo = if min >= 0.0 && (max - min) > 0.5 * max {
            0.0
        } else {
            min - pad
        };
        AxisMap {
            scale: Scale::Linear,
            lo,
            hi: max + pad,
        }
    }
}

fn x_axis(spec: &PlotSpec) -> AxisMap {
    let xs: Vec<f64> = spec
        .lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.x))
        .filter(|v| v.is_finite())
        .collect();
    let (min, max) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
    if !min.is_finite() {
        return AxisMap {
            scale: Scale::Linear,
            lo: 0.0,
            hi: 1.0,
        };
    }
    match spec.x_scale {
        Scale::Log2 | Scale::Log10 if min > 0.0 => AxisMap {
            scale: spec.x_scale,
            lo: min / 1.3,
            hi: max * 1.3,
        },
        _ => {
            let pad = ((max - min) * 0.03).max(0.5);
            AxisMap {
                scale: Scale::Linear,
                lo: min - pad,
                hi: max + pad,
            }
        }
    }
}

/// The SVG text of a line plot or of heat maps.
pub fn render(spec: &PlotSpec) -> String {
    if spec.heat_maps.is_empty() {
        render_lines(spec)
    } else {
        render_heat_maps(spec)
    }
}

fn legend_entries(spec: &PlotSpec) -> usize {
    spec.lines.len() + spec.reference_lines.len()
}

/// Roughly how wide `text` is at 12 px sans-serif (for sizing, never for placing).
fn text_width(text: &str) -> f64 {
    7.0 * text.chars().count() as f64
}

fn render_lines(spec: &PlotSpec) -> String {
    let (xm, ym) = (x_axis(spec), y_axis(spec));
    // Wide enough for the longest legend entry: labels are never cut off.
    let longest = spec
        .lines
        .iter()
        .map(|l| text_width(&l.label))
        .chain(spec.reference_lines.iter().map(|r| text_width(&r.label) + 60.0))
        .fold(0.0, f64::max);
    let width = WIDTH.max(LEGEND_LEFT + 38.0 + longest + 12.0);
    let height = (PLOT_TOP + PLOT_HEIGHT + 70.0).max(PLOT_TOP + 20.0 + LEGEND_ROW * legend_entries(spec) as f64);
    let px = |v: f64| PLOT_LEFT + xm.fraction(v) * PLOT_WIDTH;
    let py = |v: f64| PLOT_TOP + (1.0 - ym.fraction(v)) * PLOT_HEIGHT;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{:.0}" y="26" font-size="16" text-anchor="middle">{}</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2.0,
        escape(&spec.title)
    );
    // Grid and ticks.
    for (v, labelled) in ym.ticks() {
        let y = py(v);
        let _ = writeln!(
            svg,
            r##"<line x1="{PLOT_LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e4e4e4"/>"##,
            PLOT_LEFT + PLOT_WIDTH
        );
        if labelled {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                PLOT_LEFT - 6.0,
                y + 4.0,
                format_tick(v)
            );
        }
    }
    for (v, labelled) in xm.ticks() {
        let x = px(v);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{PLOT_TOP}" x2="{x:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##,
            PLOT_TOP + PLOT_HEIGHT
        );
        if labelled {
            let _ = writeln!(
                svg,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                PLOT_TOP + PLOT_HEIGHT + 16.0,
                format_tick(v)
            );
        }
    }
    let _ = writeln!(
        svg,
        r#"<rect x="{PLOT_LEFT}" y="{PLOT_TOP}" width="{PLOT_WIDTH}" height="{PLOT_HEIGHT}" fill="none" stroke="black"/>"#
    );
    let scale_note = |m: &AxisMap| match m.scale {
        Scale::Log10 | Scale::Log2 => "; log scale",
        _ => "",
    };
    let _ = writeln!(
        svg,
        r#"<text x="{:.0}" y="{:.0}" text-anchor="middle">{}{}</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2.0,
        PLOT_TOP + PLOT_HEIGHT + 40.0,
        escape(&spec.x_label),
        scale_note(&xm)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(22,{:.0}) rotate(-90)" text-anchor="middle">{}{}</text>"#,
        PLOT_TOP + PLOT_HEIGHT / 2.0,
        escape(&spec.y_label),
        scale_note(&ym)
    );
    let _ = writeln!(
        svg,
        r#"<clipPath id="plot"><rect x="{PLOT_LEFT}" y="{PLOT_TOP}" width="{PLOT_WIDTH}" height="{PLOT_HEIGHT}"/></clipPath>"#
    );
    let _ = writeln!(svg, r#"<g clip-path="url(#plot)">"#);
    for (i, ReferenceLine { value, .. }) in spec.reference_lines.iter().enumerate() {
        let y = py(*value);
        let _ = writeln!(
            svg,
            r##"<line x1="{PLOT_LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>"##,
            PLOT_LEFT + PLOT_WIDTH,
            REFERENCE_COLOURS[i % REFERENCE_COLOURS.len()]
        );
    }
    for line in &spec.lines {
        let colour = colour(line);
        for p in &line.points {
            if p.hi > p.lo {
                let _ = writeln!(
                    svg,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{colour}" stroke-opacity="0.45" stroke-width="3"/>"#,
                    py(p.lo),
                    py(p.hi),
                    x = px(p.x)
                );
            }
        }
        let path: Vec<String> = line
            .points
            .iter()
            .map(|p| format!("{:.1},{:.1}", px(p.x), py(p.y)))
            .collect();
        let width = if line.implementation == Implementation::Rust {
            2.2
        } else {
            1.6
        };
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-dasharray="{}"/>"#,
            path.join(" "),
            dash(line.implementation)
        );
        for p in &line.points {
            svg.push_str(&marker(line.implementation, px(p.x), py(p.y), colour));
            svg.push('\n');
        }
    }
    let _ = writeln!(svg, "</g>");
    // The legend, right of the plot.
    let mut y = PLOT_TOP + 6.0;
    for line in &spec.lines {
        let colour = colour(line);
        let _ = writeln!(
            svg,
            r#"<line x1="{LEGEND_LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2" stroke-dasharray="{}"/>"#,
            LEGEND_LEFT + 30.0,
            dash(line.implementation)
        );
        svg.push_str(&marker(line.implementation, LEGEND_LEFT + 15.0, y, colour));
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            LEGEND_LEFT + 38.0,
            y + 4.0,
            escape(&line.label)
        );
        y += LEGEND_ROW;
    }
    for (i, ReferenceLine { label, value }) in spec.reference_lines.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<line x1="{LEGEND_LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>"##,
            LEGEND_LEFT + 30.0,
            REFERENCE_COLOURS[i % REFERENCE_COLOURS.len()]
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{} ({})</text>"#,
            LEGEND_LEFT + 38.0,
            y + 4.0,
            escape(label),
            format_tick(*value)
        );
        y += LEGEND_ROW;
    }
    svg.push_str("</svg>\n");
    svg
}

/// Blue ramp from pale to dark for `fraction` in 0..=1.
fn heat_colour(fraction: f64) -> String {
    let f = fraction.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        lerp(235.0, 8.0),
        lerp(243.0, 69.0),
        lerp(251.0, 148.0)
    )
}

fn render_heat_maps(spec: &PlotSpec) -> String {
    const CELL: f64 = 64.0;
    let largest = spec
        .heat_maps
        .iter()
        .flat_map(|h| h.cells.iter().filter_map(|c| c.2))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    // Each panel as wide as its grid or its title, whichever is wider; panels wrap into rows.
    const ROW_WIDTH: f64 = 1400.0;
    let panel_width = |h: &HeatMap| (CELL * h.gpus.len().min(64) as f64 + 90.0).max(text_width(&h.title) + 40.0);
    let panel_height = |h: &HeatMap| CELL * h.gpus.len().min(64) as f64 + 90.0;
    let mut places: Vec<(f64, f64)> = Vec::new();
    let (mut left, mut top, mut row_height, mut width) = (60.0f64, 80.0f64, 0.0f64, 400.0f64);
    for map in &spec.heat_maps {
        if left > 60.0 && left + panel_width(map) > ROW_WIDTH {
            left = 60.0;
            top += row_height;
            row_height = 0.0;
        }
        places.push((left, top));
        left += panel_width(map);
        width = width.max(left);
        row_height = row_height.max(panel_height(map));
    }
    let width = width + 40.0;
    let height = top + row_height + 30.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="20" y="24" font-size="16">{} ({})</text>"#,
        escape(&spec.title),
        escape(&spec.y_label)
    );
    for (map, &(left, top)) in spec.heat_maps.iter().zip(&places) {
        let n = map.gpus.len().min(64);
        let _ = writeln!(
            svg,
            r#"<text x="{left:.0}" y="{:.0}">{}</text>"#,
            top - 24.0,
            escape(&map.title)
        );
        for (i, gpu) in map.gpus.iter().take(n).enumerate() {
            let _ = writeln!(
                svg,
                r#"<text x="{:.0}" y="{:.0}" text-anchor="middle">dst {gpu}</text>"#,
                left + CELL * (i as f64 + 0.5),
                top - 6.0
            );
            let _ = writeln!(
                svg,
                r#"<text x="{:.0}" y="{:.0}" text-anchor="end">src {gpu}</text>"#,
                left - 4.0,
                top + CELL * (i as f64 + 0.5) + 4.0
            );
        }
        let place = |gpu: usize| map.gpus.binary_search(&gpu).ok().filter(|&i| i < n);
        for &(src, dst, value) in &map.cells {
            let (Some(row), Some(column)) = (place(src), place(dst)) else {
                continue;
            };
            let (x, y) = (left + CELL * column as f64, top + CELL * row as f64);
            let (fill, text) = match value {
                Some(v) if v.is_finite() && largest > 0.0 => (heat_colour(v / largest), format_tick(v)),
                _ => ("#dddddd".to_string(), "—".to_string()),
            };
            let ink = if value.is_some_and(|v| largest > 0.0 && v / largest > 0.55) {
                "white"
            } else {
                "black"
            };
            let _ = writeln!(
                svg,
                r#"<rect x="{x:.0}" y="{y:.0}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="white"/><text x="{:.0}" y="{:.0}" text-anchor="middle" fill="{ink}">{text}</text>"#,
                x + CELL / 2.0,
                y + CELL / 2.0 + 4.0
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::plot_spec::PlotPoint;

    fn line(points: &[(f64, f64)]) -> PlotLine {
        PlotLine {
            label: "offset_copy · Rust [f32]".into(),
            group: 0,
            implementation: Implementation::Rust,
            points: points
                .iter()
                .map(|&(x, y)| PlotPoint {
                    x,
                    y,
                    lo: y * 0.99,
                    hi: y * 1.01,
                })
                .collect(),
        }
    }

    fn spec(lines: Vec<PlotLine>, x_scale: Scale, y_scale: Scale) -> PlotSpec {
        PlotSpec {
            suffix: String::new(),
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_scale,
            y_scale,
            lines,
            reference_lines: vec![],
            heat_maps: vec![],
        }
    }

    #[test]
    fn log_axes_label_every_decade_and_the_steps_between() {
        let ticks = log10_ticks(3.0, 4000.0);
        let labelled: Vec<f64> = ticks.iter().filter(|t| t.1).map(|t| t.0).collect();
        assert_eq!(labelled, [5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0]);
        let wide = log10_ticks(1e-3, 1e6);
        assert!(
            wide.iter()
                .filter(|t| t.1)
                .all(|t| (t.0.log10() - t.0.log10().round()).abs() < 1e-9)
        );
        assert!(wide.iter().filter(|t| t.1).count() >= 9);
    }

    #[test]
    fn a_narrow_range_gets_a_linear_axis_and_a_wide_one_a_log_axis() {
        let narrow = spec(vec![line(&[(0.0, 2400.0), (1.0, 2320.0)])], Scale::Linear, Scale::Auto);
        let y = y_axis(&narrow);
        assert_eq!(y.scale, Scale::Linear);
        assert!(y.lo > 2000.0, "the narrow range is not flattened against zero: {y:?}");
        let wide = spec(vec![line(&[(1.0, 2400.0), (32.0, 128.0)])], Scale::Linear, Scale::Auto);
        assert_eq!(y_axis(&wide).scale, Scale::Log10);
    }

    #[test]
    fn hostile_values_never_hang_and_give_a_plot() {
        for values in [
            vec![(1.0, f64::INFINITY), (2.0, f64::NAN)],
            vec![(1.0, 1e300), (2.0, 1e-300)],
            vec![(0.0, 0.0), (0.0, 0.0)],
            vec![(-5.0, -1.0), (1e18, 1e18)],
        ] {
            for scale in [Scale::Auto, Scale::Log10, Scale::Linear] {
                let svg = render(&spec(vec![line(&values)], Scale::Log2, scale));
                assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
            }
        }
        assert!(linear_ticks(1.0, 1.0).len() == 1);
        assert!(log10_ticks(1e-300, 1e300).len() <= 2 * MAX_TICKS);
    }

    #[test]
    fn implementations_differ_by_dash_and_marker() {
        let mut twin = line(&[(0.0, 1.0), (1.0, 2.0)]);
        twin.implementation = Implementation::CudaC;
        let svg = render(&spec(
            vec![line(&[(0.0, 1.0), (1.0, 2.0)]), twin],
            Scale::Linear,
            Scale::Auto,
        ));
        assert!(svg.contains(r#"stroke-dasharray="9 4""#) && svg.contains("<rect x=") && svg.contains("<circle"));
        // The legend is right of the plot area.
        assert!(svg.contains(&format!(r#"<text x="{:.1}""#, LEGEND_LEFT + 38.0)));
    }

    #[test]
    fn heat_maps_show_each_cell_and_a_dash_where_nothing_was_measured() {
        let spec = PlotSpec {
            heat_maps: vec![HeatMap {
                title: "CE copy".into(),
                gpus: vec![0, 1],
                cells: vec![(0, 1, Some(390.0)), (1, 0, Some(385.0)), (0, 0, None)],
            }],
            ..spec(vec![], Scale::Linear, Scale::Auto)
        };
        let svg = render(&spec);
        assert!(svg.contains(">390<") && svg.contains(">385<") && svg.contains(">—<"));
    }
}
