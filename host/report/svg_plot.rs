//! SVG plots written by hand: no plotting crate, no font libraries.
//!
//! What a reader needs and the plots guarantee:
//! * the legend sits outside the data; every legend entry has its own marker,
//!   its kernel's colour and its implementation's dash, so lines stay apart
//!   where they lie on top of each other;
//! * panels side by side share the x axis and the legend, each with a y axis
//!   of its own (transfers: host → device, device → host, device ↔ device);
//! * every axis is labelled with its unit; sizes read "4 KiB", "1 GiB"; ticks
//!   of whole-number axes are whole; log axes start and end on a labelled
//!   tick; a y axis that does not start at 0 carries a break mark and says so;
//! * points marked alone, and every point of a categorical axis, are drawn
//!   without a line to their neighbours;
//! * heat maps carry a colour scale.
//!
//! Every loop here is bounded by the number of points or by a fixed tick
//! count, whatever the input values are; every text is escaped for XML.

use std::fmt::Write;

use super::plot_spec::{HeatMap, Panel, PlotLine, PlotSpec, XTicks};
use super::{ReferenceLine, Scale};
use crate::facts::Implementation;

const PLOT_LEFT: f64 = 84.0;
const PLOT_TOP: f64 = 64.0;
const PLOT_HEIGHT: f64 = 400.0;
/// The width of a plot of one panel, and of each of several.
const SINGLE_PANEL_WIDTH: f64 = 560.0;
const MULTI_PANEL_WIDTH: f64 = 340.0;
/// Between panels: room for the next panel's tick labels.
const PANEL_GAP: f64 = 78.0;
const LEGEND_GAP: f64 = 28.0;
const LEGEND_ROW: f64 = 18.0;
/// At most this many ticks per axis, whatever the range.
const MAX_TICKS: usize = 24;
/// At most this many panels side by side (more are not drawn).
const MAX_PANELS: usize = 6;

/// Colour-blind-safe palette (Okabe–Ito, then Tableau), one per kernel.
const PALETTE: [&str; 12] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#BCBD22",
    "#9467BD", "#17BECF",
];

/// Colours of the reference lines (peaks, published figures), apart from the series'.
const REFERENCE_COLOURS: [&str; 4] = ["#B2182B", "#6A3D9A", "#4D4D4D", "#8C510A"];

/// Marker shapes, one per legend entry in turn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    Cross,
    TriangleDown,
    Plus,
    HollowCircle,
    HollowDiamond,
    Star,
}

const SHAPES: [Shape; 10] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::Cross,
    Shape::TriangleDown,
    Shape::Plus,
    Shape::HollowCircle,
    Shape::HollowDiamond,
    Shape::Star,
];

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

/// The marker `shape` centred on (x, y).
fn marker(shape: Shape, x: f64, y: f64, colour: &str) -> String {
    let path = |d: String, filled: bool| {
        if filled {
            format!(r#"<path d="{d}" fill="{colour}"/>"#)
        } else {
            format!(r#"<path d="{d}" fill="white" stroke="{colour}" stroke-width="1.5"/>"#)
        }
    };
    match shape {
        Shape::Circle => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.8" fill="{colour}"/>"#),
        Shape::HollowCircle => {
            format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.8" fill="white" stroke="{colour}" stroke-width="1.5"/>"#)
        }
        Shape::Square => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="white" stroke="{colour}" stroke-width="1.5"/>"#,
            x - 3.5,
            y - 3.5
        ),
        Shape::TriangleUp => path(
            format!(
                "M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z",
                y - 4.5,
                x + 4.5,
                y + 3.5,
                x - 4.5,
                y + 3.5
            ),
            true,
        ),
        Shape::TriangleDown => path(
            format!(
                "M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z",
                y + 4.5,
                x + 4.5,
                y - 3.5,
                x - 4.5,
                y - 3.5
            ),
            false,
        ),
        Shape::Diamond | Shape::HollowDiamond => path(
            format!(
                "M{x:.1},{:.1} L{:.1},{y:.1} L{x:.1},{:.1} L{:.1},{y:.1} Z",
                y - 5.0,
                x + 5.0,
                y + 5.0,
                x - 5.0
            ),
            shape == Shape::Diamond,
        ),
        Shape::Cross => format!(
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
        Shape::Plus => format!(
            r#"<path d="M{:.1},{y:.1} L{:.1},{y:.1} M{x:.1},{:.1} L{x:.1},{:.1}" stroke="{colour}" stroke-width="2"/>"#,
            x - 5.0,
            x + 5.0,
            y - 5.0,
            y + 5.0
        ),
        Shape::Star => {
            let mut d = String::new();
            for k in 0..10 {
                let r = if k % 2 == 0 { 5.5 } else { 2.4 };
                let a = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                let _ = write!(
                    d,
                    "{}{:.1},{:.1} ",
                    if k == 0 { 'M' } else { 'L' },
                    x + r * a.cos(),
                    y + r * a.sin()
                );
            }
            d.push('Z');
            path(d, true)
        }
    }
}

fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    super::text_escape::xml(text)
}

/// A number with few digits and no float noise: "0.50", "2.5", "3000", "120k", "1.5M".
pub fn format_tick(value: f64) -> String {
    let magnitude = value.abs();
    if !value.is_finite() {
        return "—".into();
    }
    let si = |scaled: f64, suffix: &str| {
        if scaled == scaled.round() {
            format!("{scaled:.0}{suffix}")
        } else {
            format!("{scaled:.1}{suffix}")
        }
    };
    if magnitude >= 1e12 {
        si(value / 1e12, "T")
    } else if magnitude >= 1e9 {
        si(value / 1e9, "G")
    } else if magnitude >= 1e6 {
        si(value / 1e6, "M")
    } else if magnitude >= 1e5 {
        si(value / 1e3, "k")
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

/// A size in bytes the way people write it: "512 B", "4 KiB", "1.5 MiB", "1 GiB".
pub fn format_bytes(bytes: f64) -> String {
    let units = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in units {
        let size = (1u64 << shift) as f64;
        if bytes.abs() >= size {
            let scaled = bytes / size;
            return if scaled == scaled.round() {
                format!("{scaled:.0} {unit}")
            } else {
                format!("{scaled:.1} {unit}")
            };
        }
    }
    format!("{} B", format_tick(bytes))
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
        if hi > lo && v.is_finite() {
            ((self.t(v) - lo) / (hi - lo)).clamp(-0.05, 1.05)
        } else {
            0.5
        }
    }

    fn is_log(&self) -> bool {
        matches!(self.scale, Scale::Log2 | Scale::Log10)
    }
}

/// Ticks at 1, 2 and 5 × each decade inside [lo, hi], all labelled when the
/// range spans at most four decades, else labels on decades only.
fn log10_ticks(lo: f64, hi: f64) -> Vec<(f64, bool)> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return vec![(lo, true)];
    }
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

/// The largest 1-2-5 tick at most `v`, and the smallest at least `v` (for `v` > 0).
fn log_tick_around(v: f64) -> (f64, f64) {
    let decade = 10f64.powf(v.log10().floor());
    let steps = [1.0, 2.0, 5.0, 10.0];
    let below = steps
        .iter()
        .rev()
        .map(|m| m * decade)
        .find(|t| *t <= v * 1.000_001)
        .unwrap_or(decade);
    let above = steps
        .iter()
        .map(|m| m * decade)
        .find(|t| *t >= v * 0.999_999)
        .unwrap_or(10.0 * decade);
    (below, above)
}

/// A step of 1, 2 or 5 × a power of ten giving at most about eight ticks over `span`.
fn linear_step(span: f64, whole: bool) -> f64 {
    let raw = span / 6.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| span / s <= 8.0)
        .unwrap_or(10.0 * power);
    if whole { step.max(1.0).round() } else { step }
}

/// Ticks at a 1-2-5 step (whole steps for a whole-number axis).
fn linear_ticks(lo: f64, hi: f64, whole: bool) -> Vec<(f64, bool)> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return vec![(lo, true)];
    }
    let step = linear_step(span, whole);
    let start = (lo / step).ceil() * step;
    (0..MAX_TICKS)
        .map(|i| start + i as f64 * step)
        .take_while(|v| *v <= hi + step * 1e-9)
        .map(|v| (v, true))
        .collect()
}

/// Powers of two inside [lo, hi], every one labelled when they fit, else every n-th.
fn log2_ticks(lo: f64, hi: f64, label_width: f64, width: f64) -> Vec<(f64, bool)> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return vec![(lo.max(1.0), true)];
    }
    let (a, b) = (lo.log2().ceil() as i64, hi.log2().floor() as i64);
    let count = (b - a + 1).max(0) as usize;
    let every_for_ticks = count.div_ceil(MAX_TICKS).max(1);
    let every_for_labels = ((count as f64 * label_width) / width).ceil().max(1.0) as usize;
    let needed = every_for_ticks.max(every_for_labels);
    // Where a slightly wider spacing labels both ends of the axis, use it.
    let every = (needed..=2 * needed)
        .find(|e| count > 0 && (count - 1).is_multiple_of(*e) && e.is_multiple_of(every_for_ticks))
        .unwrap_or(needed);
    // Counted from the largest, so the axis' top end is labelled.
    (a..=b)
        .rev()
        .enumerate()
        .filter(|(i, _)| i % every_for_ticks == 0)
        .take(MAX_TICKS)
        .map(|(i, e)| (2f64.powi(e.clamp(-1000, 1000) as i32), i % every == 0))
        .collect()
}

/// A panel's y axis over its lines and reference lines: a log axis when `Auto` finds more
/// than a factor of 3 between them, starting and ending on labelled ticks.
fn y_axis(panel: &Panel, scale: Scale) -> AxisMap {
    let values: Vec<f64> = panel
        .lines
        .iter()
        .flat_map(|l| l.points.iter().flat_map(|p| [p.lo, p.hi, p.y]))
        .chain(panel.reference_lines.iter().map(|r| r.value))
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
    let log = match scale {
        Scale::Log10 | Scale::Log2 => !positive.is_empty(),
        Scale::Linear => false,
        Scale::Auto => min > 0.0 && max / min > 3.0,
    };
    if log {
        let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = positive.iter().copied().fold(0.0, f64::max);
        let (lo, hi) = (log_tick_around(lo / 1.05).0, log_tick_around(hi * 1.05).1);
        AxisMap {
            scale: Scale::Log10,
            lo,
            hi: if hi > lo { hi } else { lo * 10.0 },
        }
    } else {
        // A narrow range is shown as it is (the differences are the point; the axis
        // says it is cut); a wide one starts at zero.
        let pad = ((max - min) * 0.08).max(max.abs() * 1e-3).max(1e-12);
        let (lo, hi) = if min >= 0.0 && (max - min) > 0.5 * max {
            (0.0, max + pad)
        } else {
            (min - pad, max + pad)
        };
        let step = linear_step(hi - lo, false);
        let snapped_lo = if lo == 0.0 { 0.0 } else { (lo / step).floor() * step };
        let snapped_hi = (hi / step).ceil() * step;
        AxisMap {
            scale: Scale::Linear,
            lo: if min >= 0.0 { snapped_lo.max(0.0) } else { snapped_lo },
            hi: if snapped_hi > snapped_lo { snapped_hi } else { hi },
        }
    }
}

/// The x axis over every panel's points.
fn x_axis(spec: &PlotSpec) -> AxisMap {
    if let XTicks::Categories(names) = &spec.x_ticks {
        return AxisMap {
            scale: Scale::Linear,
            lo: -0.5,
            hi: names.len().max(1) as f64 - 0.5,
        };
    }
    let xs: Vec<f64> = spec
        .lines()
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

/// An x tick's label.
fn x_label(ticks: &XTicks, v: f64) -> String {
    match ticks {
        XTicks::Numbers => format_tick(v),
        XTicks::Bytes { unit_bytes } => format_bytes(v * *unit_bytes as f64),
        XTicks::Categories(names) => names.get(v.round().max(0.0) as usize).cloned().unwrap_or_default(),
    }
}

/// The x ticks: categories, powers of two or a whole-number 1-2-5 step.
fn x_ticks(spec: &PlotSpec, map: &AxisMap, width: f64) -> Vec<(f64, bool)> {
    match (&spec.x_ticks, map.scale) {
        (XTicks::Categories(names), _) => (0..names.len().min(4 * MAX_TICKS)).map(|i| (i as f64, true)).collect(),
        (_, Scale::Log2) => {
            let widest = [map.lo, map.hi]
                .iter()
                .map(|v| text_width(&x_label(&spec.x_ticks, *v)))
                .fold(0.0, f64::max);
            log2_ticks(map.lo, map.hi, widest + 12.0, width)
        }
        (_, Scale::Log10) => log10_ticks(map.lo, map.hi),
        _ => linear_ticks(map.lo, map.hi, true),
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

/// Roughly how wide `text` is at 12 px sans-serif (for sizing, never for placing).
fn text_width(text: &str) -> f64 {
    7.0 * text.chars().count() as f64
}

/// One legend entry: a line style, by first appearance over the panels.
struct Entry<'a> {
    label: &'a str,
    group: usize,
    implementation: Implementation,
    colour: &'static str,
    shape: Shape,
}

fn legend_entries(panels: &[Panel]) -> Vec<Entry<'_>> {
    let mut entries: Vec<Entry<'_>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for line in panels.iter().flat_map(|p| p.lines.iter()) {
        if seen.insert((line.label.as_str(), line.group, line.implementation)) {
            let shape = SHAPES[entries.len() % SHAPES.len()];
            entries.push(Entry {
                label: &line.label,
                group: line.group,
                implementation: line.implementation,
                colour: colour(line),
                shape,
            });
        }
    }
    entries
}

/// The reference lines of every panel, once per label, each with its colour.
fn reference_entries(panels: &[Panel]) -> Vec<(&str, f64, &'static str)> {
    let mut entries: Vec<(&str, f64, &'static str)> = Vec::new();
    for r in panels.iter().flat_map(|p| p.reference_lines.iter()) {
        if !entries.iter().any(|e| e.0 == r.label) && entries.len() < 4 * MAX_TICKS {
            let colour = REFERENCE_COLOURS[entries.len() % REFERENCE_COLOURS.len()];
            entries.push((&r.label, r.value, colour));
        }
    }
    entries
}

fn render_lines(spec: &PlotSpec) -> String {
    let panels: Vec<Panel> = spec.panels.iter().take(MAX_PANELS).cloned().collect();
    let count = panels.len().max(1);
    let panel_width = if count == 1 {
        SINGLE_PANEL_WIDTH
    } else {
        MULTI_PANEL_WIDTH
    };
    let xm = x_axis(spec);
    let entries = legend_entries(&panels);
    let references = reference_entries(&panels);
    let style = |line: &PlotLine| {
        entries
            .iter()
            .find(|e| e.label == line.label && e.group == line.group && e.implementation == line.implementation)
            .map_or((colour(line), Shape::Circle), |e| (e.colour, e.shape))
    };
    // Category names that do not fit side by side are drawn slanted.
    let ticks = x_ticks(spec, &xm, panel_width);
    let slant = match &spec.x_ticks {
        XTicks::Categories(names) => {
            let widest = names.iter().map(|n| text_width(n)).fold(0.0, f64::max);
            widest + 8.0 > panel_width / names.len().max(1) as f64
        }
        _ => false,
    };
    let slant_depth = if slant {
        ticks
            .iter()
            .map(|(v, _)| text_width(&x_label(&spec.x_ticks, *v)))
            .fold(0.0, f64::max)
            * 0.6
    } else {
        0.0
    };
    let legend_left = PLOT_LEFT + count as f64 * panel_width + (count - 1) as f64 * PANEL_GAP + LEGEND_GAP;
    let longest = entries
        .iter()
        .map(|e| text_width(e.label))
        .chain(references.iter().map(|r| text_width(r.0) + 60.0))
        .fold(0.0, f64::max);
    let title_width = 20.0 + 9.5 * spec.title.chars().count() as f64 + 20.0;
    let width = (legend_left + 38.0 + longest + 16.0).max(title_width);
    let legend_rows = entries.len() + references.len();
    let bottom = PLOT_TOP + PLOT_HEIGHT + 24.0 + slant_depth + 36.0;
    let height = bottom.max(PLOT_TOP + 20.0 + LEGEND_ROW * legend_rows as f64);
    let panel_left = |i: usize| PLOT_LEFT + i as f64 * (panel_width + PANEL_GAP);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="20" y="28" font-size="16" font-weight="bold">{}</text>"#,
        escape(&spec.title)
    );
    let log_note = |m: &AxisMap| if m.is_log() { "; log scale" } else { "" };
    // One kind of y axis for all panels (each its own range): log for all when any needs it.
    let y_scale = if spec.y_scale == Scale::Auto && panels.iter().any(|p| y_axis(p, Scale::Auto).is_log()) {
        Scale::Log10
    } else {
        spec.y_scale
    };
    let mut any_log_y = false;
    let mut cut_from: Vec<f64> = Vec::new();
    for (index, panel) in panels.iter().enumerate() {
        let left = panel_left(index);
        let ym = y_axis(panel, y_scale);
        any_log_y |= ym.is_log();
        let px = |v: f64| left + xm.fraction(v) * panel_width;
        let py = |v: f64| PLOT_TOP + (1.0 - ym.fraction(v)) * PLOT_HEIGHT;
        if !panel.title.is_empty() {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="13">{}</text>"#,
                left + panel_width / 2.0,
                PLOT_TOP - 10.0,
                escape(&panel.title)
            );
        }
        let y_ticks = match ym.scale {
            Scale::Log10 => log10_ticks(ym.lo, ym.hi),
            _ => linear_ticks(ym.lo, ym.hi, false),
        };
        for (v, labelled) in y_ticks {
            let y = py(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e4e4e4"/>"##,
                left + panel_width
            );
            if labelled {
                let _ = writeln!(
                    svg,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    left - 6.0,
                    y + 4.0,
                    format_tick(v)
                );
            }
        }
        for &(v, labelled) in &ticks {
            let x = px(v);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{PLOT_TOP}" x2="{x:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##,
                PLOT_TOP + PLOT_HEIGHT
            );
            if labelled {
                let label = escape(&x_label(&spec.x_ticks, v)).into_owned();
                let y = PLOT_TOP + PLOT_HEIGHT + 16.0;
                if slant {
                    let _ = writeln!(
                        svg,
                        r#"<text x="{x:.1}" y="{y:.1}" text-anchor="end" transform="rotate(-35 {x:.1} {y:.1})">{label}</text>"#
                    );
                } else {
                    let _ = writeln!(
                        svg,
                        r#"<text x="{x:.1}" y="{y:.1}" text-anchor="middle">{label}</text>"#
                    );
                }
            }
        }
        let _ = writeln!(
            svg,
            r#"<rect x="{left}" y="{PLOT_TOP}" width="{panel_width}" height="{PLOT_HEIGHT}" fill="none" stroke="black"/>"#
        );
        if ym.scale == Scale::Linear && ym.lo > 0.0 {
            // The axis is cut: a break mark at its foot.
            let (x, y) = (left, PLOT_TOP + PLOT_HEIGHT - 10.0);
            let _ = writeln!(
                svg,
                r#"<path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="black" stroke-width="1.5"/><rect x="{:.1}" y="{:.1}" width="12" height="4" fill="white"/>"#,
                x - 6.0,
                y + 3.0,
                x + 6.0,
                y - 1.0,
                x - 6.0,
                y + 7.0,
                x + 6.0,
                y + 3.0,
                x - 6.0,
                y + 1.5
            );
            cut_from.push(ym.lo);
        }
        let clip = format!("panel{index}");
        let _ = writeln!(
            svg,
            r#"<clipPath id="{clip}"><rect x="{left}" y="{PLOT_TOP}" width="{panel_width}" height="{PLOT_HEIGHT}"/></clipPath>"#
        );
        let _ = writeln!(svg, r#"<g clip-path="url(#{clip})">"#);
        for ReferenceLine { label, value } in &panel.reference_lines {
            let colour = references
                .iter()
                .find(|r| r.0 == label)
                .map_or(REFERENCE_COLOURS[0], |r| r.2);
            let y = py(*value);
            let _ = writeln!(
                svg,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 3"/>"##,
                left + panel_width
            );
        }
        let categorical = matches!(spec.x_ticks, XTicks::Categories(_));
        // On a categorical axis the lines' markers stand side by side within their category.
        let dodge = |line_index: usize| {
            if categorical && panel.lines.len() > 1 {
                let n = panel.lines.len() as f64;
                0.6 * (line_index as f64 / (n - 1.0) - 0.5)
            } else {
                0.0
            }
        };
        for (line_index, line) in panel.lines.iter().enumerate() {
            let (colour, shape) = style(line);
            let offset = dodge(line_index);
            let px = |v: f64| px(v + offset);
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
                .filter(|p| !p.alone && !categorical)
                .map(|p| format!("{:.1},{:.1}", px(p.x), py(p.y)))
                .collect();
            if path.len() > 1 {
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
            }
            if line.implementation != Implementation::Model || line.points.len() == 1 {
                for p in &line.points {
                    svg.push_str(&marker(shape, px(p.x), py(p.y), colour));
                    svg.push('\n');
                }
            }
        }
        let _ = writeln!(svg, "</g>");
    }
    // Axis names: x under every panel, y once at the left.
    let cut = match cut_from.as_slice() {
        [] => String::new(),
        [from] if count == 1 => format!("; axis from {}, not 0", format_tick(*from)),
        _ => "; cut axes marked ≈".to_string(),
    };
    let _ = writeln!(
        svg,
        r#"<text x="{:.0}" y="{:.0}" text-anchor="middle">{}{}</text>"#,
        PLOT_LEFT + (count as f64 * panel_width + (count - 1) as f64 * PANEL_GAP) / 2.0,
        PLOT_TOP + PLOT_HEIGHT + 40.0 + slant_depth,
        escape(&spec.x_label),
        log_note(&xm)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(22,{:.0}) rotate(-90)" text-anchor="middle">{}{}{cut}</text>"#,
        PLOT_TOP + PLOT_HEIGHT / 2.0,
        escape(&spec.y_label),
        if any_log_y { "; log scale" } else { "" }
    );
    // The legend, right of the panels.
    let mut y = PLOT_TOP + 6.0;
    for entry in &entries {
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="2" stroke-dasharray="{}"/>"#,
            legend_left + 30.0,
            entry.colour,
            dash(entry.implementation)
        );
        svg.push_str(&marker(entry.shape, legend_left + 15.0, y, entry.colour));
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            legend_left + 38.0,
            y + 4.0,
            escape(entry.label)
        );
        y += LEGEND_ROW;
    }
    for (label, value, colour) in &references {
        let _ = writeln!(
            svg,
            r##"<line x1="{legend_left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 3"/>"##,
            legend_left + 30.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{} ({})</text>"#,
            legend_left + 38.0,
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
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
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
    const MAX_SIDE: usize = 64;
    const SCALE_WIDTH: f64 = 18.0;
    let values: Vec<f64> = spec
        .heat_maps
        .iter()
        .flat_map(|h| h.cells.iter().filter_map(|c| c.2))
        .filter(|v| v.is_finite() && *v >= 0.0)
        .collect();
    let largest = values.iter().copied().fold(0.0f64, f64::max);
    // The colour scale runs from 0 to the largest cell, on a whole tick.
    let top_of_scale = if largest > 0.0 {
        let step = linear_step(largest, false);
        (largest / step).ceil() * step
    } else {
        1.0
    };
    // Each panel as wide as its grid or its title, whichever is wider; panels wrap into rows.
    const ROW_WIDTH: f64 = 1100.0;
    let side = |h: &HeatMap| h.gpus.len().min(MAX_SIDE) as f64;
    let panel_width = |h: &HeatMap| (CELL * side(h) + 90.0).max(text_width(&h.title) + 40.0);
    let panel_height = |h: &HeatMap| CELL * side(h) + 66.0;
    // As many panels in a row as fit, the rows balanced (four panels: two rows of two).
    let widest = spec.heat_maps.iter().map(panel_width).fold(0.0f64, f64::max).max(1.0);
    let fit = ((ROW_WIDTH / widest).floor() as usize).max(1);
    let rows = spec.heat_maps.len().div_ceil(fit).max(1);
    let per_row = spec.heat_maps.len().div_ceil(rows).max(1);
    let mut places: Vec<(f64, f64)> = Vec::new();
    let (mut left, mut top, mut row_height, mut width) = (70.0f64, 100.0f64, 0.0f64, 0.0f64);
    for (i, map) in spec.heat_maps.iter().enumerate() {
        if i > 0 && i % per_row == 0 {
            left = 70.0;
            top += row_height;
            row_height = 0.0;
        }
        places.push((left, top));
        left += panel_width(map);
        width = width.max(left);
        row_height = row_height.max(panel_height(map));
    }
    let scale_left = width + 10.0;
    let title = format!("{}: {}", spec.title, spec.y_label);
    let width = (scale_left + SCALE_WIDTH + 70.0).max(20.0 + 9.5 * title.chars().count() as f64 + 20.0);
    let scale_height = (row_height - 66.0).max(CELL * 2.0);
    let height = (top + row_height).max(100.0 + scale_height + 30.0) - 20.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="20" y="28" font-size="16" font-weight="bold">{}</text>"#,
        escape(&title)
    );
    let _ = writeln!(
        svg,
        r#"<text x="20" y="50">Rows: the source GPU; columns: the destination; the diagonal (a GPU with itself) is not measured.</text>"#
    );
    for (map, &(left, top)) in spec.heat_maps.iter().zip(&places) {
        let n = map.gpus.len().min(MAX_SIDE);
        let _ = writeln!(
            svg,
            r#"<text x="{left:.0}" y="{:.0}" font-weight="bold">{}</text>"#,
            top - 28.0,
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
            // The diagonal: no copy from a GPU to itself.
            let _ = writeln!(
                svg,
                r##"<rect x="{:.0}" y="{:.0}" width="{CELL}" height="{CELL}" fill="#f4f4f4" stroke="white"/><text x="{:.0}" y="{:.0}" text-anchor="middle" fill="#999999">self</text>"##,
                left + CELL * i as f64,
                top + CELL * i as f64,
                left + CELL * (i as f64 + 0.5),
                top + CELL * (i as f64 + 0.5) + 4.0
            );
        }
        let place = |gpu: usize| map.gpus.binary_search(&gpu).ok().filter(|&i| i < n);
        for &(src, dst, value) in &map.cells {
            let (Some(row), Some(column)) = (place(src), place(dst)) else {
                continue;
            };
            if row == column {
                continue;
            }
            let (x, y) = (left + CELL * column as f64, top + CELL * row as f64);
            let fraction = value.map(|v| v / top_of_scale);
            let (fill, text) = match value {
                Some(v) if v.is_finite() && v >= 0.0 => (heat_colour(v / top_of_scale), format_tick(v)),
                _ => ("#dddddd".to_string(), "—".to_string()),
            };
            let ink = if fraction.is_some_and(|f| f > 0.55) {
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
    // The colour scale: 0 at the foot, the top tick at the head.
    let (scale_top, steps) = (100.0, 32);
    for k in 0..steps {
        let f0 = k as f64 / steps as f64;
        let y = scale_top + scale_height * (1.0 - f0 - 1.0 / steps as f64);
        let _ = writeln!(
            svg,
            r#"<rect x="{scale_left:.0}" y="{y:.1}" width="{SCALE_WIDTH}" height="{:.1}" fill="{}"/>"#,
            scale_height / steps as f64 + 0.5,
            heat_colour(f0 + 0.5 / steps as f64)
        );
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{scale_left:.0}" y="{scale_top:.0}" width="{SCALE_WIDTH}" height="{scale_height:.0}" fill="none" stroke="#888888"/>"##
    );
    for (v, _) in linear_ticks(0.0, top_of_scale, false) {
        let y = scale_top + scale_height * (1.0 - v / top_of_scale);
        let _ = writeln!(
            svg,
            r#"<line x1="{:.0}" y1="{y:.1}" x2="{:.0}" y2="{y:.1}" stroke="black"/><text x="{:.0}" y="{:.1}">{}</text>"#,
            scale_left + SCALE_WIDTH,
            scale_left + SCALE_WIDTH + 4.0,
            scale_left + SCALE_WIDTH + 7.0,
            y + 4.0,
            format_tick(v)
        );
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
            label: "offset_copy · Rust".into(),
            group: 0,
            implementation: Implementation::Rust,
            points: points
                .iter()
                .map(|&(x, y)| PlotPoint::new(x, y, y * 0.99, y * 1.01))
                .collect(),
        }
    }

    fn spec(lines: Vec<PlotLine>, x_scale: Scale, y_scale: Scale) -> PlotSpec {
        PlotSpec {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_scale,
            y_scale,
            panels: vec![Panel::of(lines, vec![])],
            ..PlotSpec::default()
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
    fn log_y_axes_start_and_end_on_a_labelled_tick() {
        // 3352 GB/s (a peak line) above 2000: the axis ends at 5000, labelled, not in the blank.
        let panel = Panel::of(
            vec![line(&[(1.0, 128.0), (32.0, 2400.0)])],
            vec![ReferenceLine {
                label: "peak".into(),
                value: 3352.0,
            }],
        );
        let y = y_axis(&panel, Scale::Log10);
        assert_eq!((y.lo, y.hi), (100.0, 5000.0));
        let labelled: Vec<f64> = log10_ticks(y.lo, y.hi)
            .into_iter()
            .filter(|t| t.1)
            .map(|t| t.0)
            .collect();
        assert_eq!(labelled.first(), Some(&100.0));
        assert_eq!(labelled.last(), Some(&5000.0));
    }

    #[test]
    fn a_narrow_range_gets_a_linear_cut_axis_and_a_wide_one_a_log_axis() {
        let narrow = spec(vec![line(&[(0.0, 2400.0), (1.0, 2320.0)])], Scale::Linear, Scale::Auto);
        let y = y_axis(&narrow.panels[0], Scale::Auto);
        assert_eq!(y.scale, Scale::Linear);
        assert!(y.lo > 2000.0, "the narrow range is not flattened against zero: {y:?}");
        let svg = render(&narrow);
        assert!(svg.contains("axis from 2280, not 0"), "{svg}");
        let wide = spec(vec![line(&[(1.0, 2400.0), (32.0, 128.0)])], Scale::Linear, Scale::Auto);
        assert_eq!(y_axis(&wide.panels[0], Scale::Auto).scale, Scale::Log10);
    }

    #[test]
    fn whole_number_axes_have_whole_ticks_and_sizes_read_as_sizes() {
        let ticks = linear_ticks(-0.5, 3.5, true);
        assert!(ticks.iter().all(|t| t.0 == t.0.round()), "{ticks:?}");
        assert_eq!(format_bytes(1048576.0 * 1024.0), "1 GiB");
        assert_eq!(format_bytes(4.0 * 1024.0), "4 KiB");
        assert_eq!(format_tick(1_048_576.0), "1.0M");
        assert_eq!(format_tick(50_000.0), "50000");
        assert_eq!(format_tick(200_000.0), "200k");
        let mut sizes = spec(
            vec![line(&[(4.0, 1.0), (1_048_576.0, 50.0)])],
            Scale::Log2,
            Scale::Log10,
        );
        sizes.x_ticks = XTicks::Bytes { unit_bytes: 1024 };
        let svg = render(&sizes);
        assert!(svg.contains(">4 KiB<") && svg.contains(">1 GiB<"), "{svg}");
        assert!(!svg.contains("e6"), "{svg}");
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
        assert!(linear_ticks(1.0, 1.0, true).len() == 1);
        assert!(log10_ticks(1e-300, 1e300).len() <= 2 * MAX_TICKS);
        assert!(log2_ticks(1e-300, 1e300, 40.0, 300.0).len() <= MAX_TICKS);
    }

    #[test]
    fn every_legend_entry_has_its_own_marker_and_implementations_their_dash() {
        let mut twin = line(&[(0.0, 1.0), (1.0, 2.0)]);
        twin.implementation = Implementation::CudaC;
        twin.label = "offset_copy · CUDA C".into();
        let mut third = line(&[(0.0, 1.0), (1.0, 2.0)]);
        third.group = 1;
        third.label = "other".into();
        let svg = render(&spec(
            vec![line(&[(0.0, 1.0), (1.0, 2.0)]), twin, third],
            Scale::Linear,
            Scale::Auto,
        ));
        assert!(svg.contains(r#"stroke-dasharray="9 4""#) && svg.contains("<rect x=") && svg.contains("<circle"));
        assert!(
            svg.contains("Z\" fill=\"#009E73\"") || svg.contains("fill=\"#D55E00\""),
            "a third shape: {svg}"
        );
        let legend_left = PLOT_LEFT + SINGLE_PANEL_WIDTH + LEGEND_GAP;
        assert!(svg.contains(&format!(r#"<text x="{:.1}""#, legend_left + 38.0)));
    }

    #[test]
    fn alone_points_and_categories_are_not_joined() {
        let mut l = line(&[(1024.0, 1.0), (2048.0, 2.0), (4095.0, 1.5), (4096.0, 2.5)]);
        l.points[2].alone = true;
        let svg = render(&spec(vec![l.clone()], Scale::Log2, Scale::Linear));
        let polyline = svg.lines().find(|s| s.starts_with("<polyline")).unwrap();
        assert_eq!(polyline.matches(',').count(), 3, "three joined points: {polyline}");
        let mut categories = spec(vec![line(&[(0.0, 1.0), (1.0, 2.0)])], Scale::Linear, Scale::Linear);
        categories.x_ticks = XTicks::Categories(vec!["Listing 2".into(), "Listing 3".into()]);
        let svg = render(&categories);
        assert!(!svg.contains("<polyline") && svg.contains(">Listing 3<"), "{svg}");
    }

    #[test]
    fn panels_share_the_legend_and_carry_their_own_reference_lines() {
        let reference = ReferenceLine {
            label: "PCIe".into(),
            value: 63.0,
        };
        let spec = PlotSpec {
            panels: vec![
                Panel {
                    title: "host → device".into(),
                    lines: vec![line(&[(1.0, 10.0), (2.0, 50.0)])],
                    reference_lines: vec![reference.clone()],
                },
                Panel {
                    title: "device ↔ device".into(),
                    lines: vec![line(&[(1.0, 100.0), (2.0, 2000.0)])],
                    reference_lines: vec![],
                },
            ],
            ..spec(vec![], Scale::Log2, Scale::Log10)
        };
        let svg = render(&spec);
        assert_eq!(svg.matches(">offset_copy · Rust<").count(), 1, "one legend entry");
        assert_eq!(
            svg.matches("stroke-dasharray=\"6 3\"").count(),
            2,
            "the line and its legend entry"
        );
        assert!(svg.contains(">host → device<") && svg.contains(">device ↔ device<"));
    }

    #[test]
    fn heat_maps_show_each_cell_the_diagonal_and_a_colour_scale() {
        let spec = PlotSpec {
            heat_maps: vec![HeatMap {
                title: "CE copy".into(),
                gpus: vec![0, 1],
                cells: vec![(0, 1, Some(390.0)), (1, 0, Some(385.0)), (0, 0, None)],
            }],
            ..spec(vec![], Scale::Linear, Scale::Auto)
        };
        let svg = render(&spec);
        assert!(svg.contains(">390<") && svg.contains(">385<"), "{svg}");
        assert_eq!(svg.matches(">self<").count(), 2);
        assert!(
            svg.contains(">400<") && svg.contains(">0<"),
            "the scale runs 0 to 400: {svg}"
        );
    }
}
