//! The OpenCL whitepaper's `MatrixVectorMul` walk (Listings 2–7, Table 1):
//! every version in every implementation, the vendor's SGEMV and the copy
//! ceiling for the same bytes, in one run.

use std::collections::HashMap;

use crate::report::{Bound, Unit};
use std::fmt::Write;

use super::copy_sweep::{Planned, measure};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::input_values::matrix_value;
use crate::launchers::{CopyKernel, MATVEC_BLOCK_THREADS, MatVecEntry, MatVecRunner, MatVecVersion, matvec_runners};
use crate::published_figures::{MATVEC, WHITEPAPER_DEVICE, value_of};
use crate::reference;
use crate::report::LedgerRow;
use crate::report::{
    Axis, Claim, ExperimentResult, Metric, Panel, PlotLine, PlotSpec, Point, PointKey, Report, Rule, SectionHooks,
    Series, SeriesKey, Waiver, Work, XTicks, point_cell, slower_by,
};
use crate::testbed::Implementation;
use kernels_gpu::matrix_vector::{warp_per_row_block, warps_per_row};

pub struct Matvec;

/// The whitepaper's matrix (width, height).
pub const WHITEPAPER_SHAPE: (u32, u32) = (1100, 60989);
/// Width of the second shape, whose height is chosen so that `M` fills the run's buffer size.
const LARGE_WIDTH: u32 = 8192;
/// The variant of the copy-ceiling series.
const CEILING: &str = "copy ceiling";
/// The whitepaper's work-groups for Listings 3–7 (Listing 2: one work-item per row, 239 groups).
const PAPER_WORK_GROUPS: u32 = 60;
/// The variant of the series on the whitepaper's grid.
const PAPER_GRID: &str = "the paper's grid";

impl Experiment for Matvec {
    fn name(&self) -> &'static str {
        "matvec"
    }
    fn title(&self) -> &'static str {
        "Matrix-vector multiply: the OpenCL whitepaper's seven versions"
    }
    fn source(&self) -> &'static str {
        "\"OpenCL Programming for the CUDA Architecture\", Listings 2–7 and Table 1 (GTX 285)"
    }
    fn points(&self) -> u64 {
        2
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let byte_counting = "M + V + W = (width x height + width + height) x 4 bytes per product, each read or \
                             written once; the copy ceiling counts 2 x 4 bytes per element of M (read + write)";
        let peak = ctx.device.info().theoretical_bandwidth_gbps;
        let axis = Axis::lines("matrix height (rows)", Metric::Bandwidth).reference("theoretical peak", peak);
        let mut result = ctx.result(self, axis, byte_counting);
        let (mut runners, waived) = matvec_runners(ctx.device)?;
        for (implementation, reason) in waived {
            result.waived.push(Waiver {
                what: implementation.label().to_string(),
                reason,
            });
        }
        let plan = plan_series(ctx, &mut result, &runners);
        let large_height =
            (ctx.settings.buffer_bytes(ctx.device.info()) / (LARGE_WIDTH as u64 * 4)).clamp(1, u32::MAX as u64) as u32;
        let shapes = [WHITEPAPER_SHAPE, (LARGE_WIDTH, large_height)];
        // No progress step of its own: the copy ceiling's sweep advances the bar.
        for (done, (width, height)) in shapes.into_iter().enumerate() {
            if ctx.stop_before(done, shapes.len()) {
                break;
            }
            ctx.progress.set_message(format!("matvec {height} x {width}"));
            measure_products(ctx, &mut result, &mut runners, &plan, (width, height))?;
            // The copy ceiling for the same bytes: vector_copy over a buffer of M's size.
            let mut ceiling = ctx.result(self, result.axis.clone(), "");
            let elements = width as usize * height as usize;
            measure::<f32>(
                ctx,
                &mut ceiling,
                &[Planned::rust(CopyKernel::Vector)],
                &[height as i32],
                elements,
                None,
            )?;
            merge_ceiling(&mut result, ceiling.series);
        }
        describe(ctx, &mut result, &shapes);
        Ok(result)
    }
}

/// Each (runner, entry) series, in the result's order: every version by
/// every implementation, then the Rust versions again on the whitepaper's own
/// grid (239 blocks for Listing 2, 60 for the others), at its shape only:
/// Table 1's steps as the paper measured them.
fn plan_series(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &[Box<dyn MatVecRunner + '_>],
) -> Vec<(usize, MatVecEntry, usize)> {
    let mut plan = Vec::new();
    for (r, runner) in runners.iter().enumerate() {
        for entry in runner.entries() {
            let label = match entry.version {
                Some(version) => format!("{} · {}", version.label(), entry.implementation.label()),
                None => entry.kernel.to_string(),
            };
            result
                .series
                .push(Series::new(ctx.key(entry.kernel, entry.implementation, "f32"), label));
            plan.push((r, entry, result.series.len() - 1));
        }
    }
    let paper: Vec<(usize, MatVecEntry)> = plan
        .iter()
        .filter(|(_, entry, _)| {
            entry.implementation == Implementation::Rust
                && entry.version.is_some_and(|v| v != MatVecVersion::WarpPerRow)
        })
        .map(|&(r, entry, _)| {
            (
                r,
                MatVecEntry {
                    grid_cap: Some(PAPER_WORK_GROUPS),
                    ..entry
                },
            )
        })
        .collect();
    for (r, entry) in paper {
        let version = entry.version.expect("filtered");
        result.series.push(Series::new(
            ctx.key(entry.kernel, entry.implementation, "f32").variant(PAPER_GRID),
            format!("{} · Rust ({PAPER_GRID})", version.label()),
        ));
        plan.push((r, entry, result.series.len() - 1));
    }
    plan
}

/// Every planned product at `(width, height)`, each checked per row against the f64 reference.
fn measure_products(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runners: &mut [Box<dyn MatVecRunner + '_>],
    plan: &[(usize, MatVecEntry, usize)],
    (width, height): (u32, u32),
) -> Result<()> {
    let peak = ctx.device.info().theoretical_bandwidth_gbps;
    let elements = width as usize * height as usize;
    let m: Vec<f32> = (0..elements).map(|i| matrix_value(i, 0)).collect();
    let v: Vec<f32> = (0..width as usize).map(|x| matrix_value(x, 1)).collect();
    let (w_ref, scale) = reference::matvec(&m, width as usize, height as usize, &v);
    for runner in runners.iter_mut() {
        runner.load(&m, &v, width, height)?;
    }
    let work = Work::bytes(
        elements as u64,
        4 * (elements + width as usize + height as usize) as u64,
    )
    .with_flops(2 * elements as u64);
    for &(r, entry, index) in plan {
        if entry.grid_cap.is_some() && (width, height) != WHITEPAPER_SHAPE {
            continue;
        }
        let runner = &mut runners[r];
        runner.fill_w(f32::NAN)?; // every row must be written by this series
        let times_ms = runner.time(&entry, ctx.settings)?;
        let failure = reference::matvec_mismatch(&runner.read_w()?, &w_ref, &scale, width as usize);
        let at = PointKey::Value(height as i64);
        if let Some(mut point) = Point::timed(at, &Metric::Bandwidth, work, &times_ms, failure) {
            if let Some(gbps) = point.median() {
                point.set_extra("% of peak", 100.0 * gbps / peak.max(f64::MIN_POSITIVE));
            }
            result.series[index].points.push(point);
        }
    }
    Ok(())
}

/// The copy ceiling's series, renamed, its points appended to the series of earlier shapes.
fn merge_ceiling(result: &mut ExperimentResult, ceiling: Vec<Series>) {
    for mut series in ceiling {
        series.key.variant = CEILING.into();
        series.label = "copy ceiling (vector_copy of M)".into();
        let existing = result.series.iter_mut().find(|s| s.key == series.key);
        match existing {
            Some(s) => s.points.append(&mut series.points),
            None => result.series.push(series),
        }
    }
}

/// The setup and the notes: the shapes and grids, the check, where a grid leaves SMs idle.
fn describe(ctx: &RunContext<'_>, result: &mut ExperimentResult, shapes: &[(u32, u32); 2]) {
    let large_height = shapes[1].1;
    let rows = |width: u32| warp_per_row_block(width, MATVEC_BLOCK_THREADS).0;
    result.setup.push(format!(
        "shapes (height x width): {} x {} (the whitepaper's) and {large_height} x {LARGE_WIDTH} (M fills the \
         run's buffer size); {MATVEC_BLOCK_THREADS} threads per block; grid-stride versions launch one full wave \
         of blocks, the warp-per-row version one block per {} rows at width {} and per {} at {LARGE_WIDTH} \
         (warps per row: {} and {}; several warps read contiguous pieces of a row, at least 4 KB each); the Rust \
         versions also on the whitepaper's grid ({PAPER_WORK_GROUPS} blocks for Listings 3–7, one thread per row \
         for Listing 2) at its shape",
        WHITEPAPER_SHAPE.1,
        WHITEPAPER_SHAPE.0,
        rows(WHITEPAPER_SHAPE.0),
        WHITEPAPER_SHAPE.0,
        rows(LARGE_WIDTH),
        warps_per_row(WHITEPAPER_SHAPE.0),
        warps_per_row(LARGE_WIDTH)
    ));
    result.notes.push(
        "results checked per row against an f64 CPU reference within γ_width·Σ|m·v| (the worst-case f32 \
         dot-product rounding, the one tolerance rule of every product in the suite)"
            .into(),
    );
    let sms = ctx.device.info().multiprocessors.max(1) as u32;
    for &(_, height) in shapes {
        let blocks = height.div_ceil(MATVEC_BLOCK_THREADS);
        if blocks < sms {
            result.notes.push(format!(
                "height {height}: the one-row-per-thread versions (Listings 2 and 3) launch {blocks} blocks for \
                 {sms} SMs, so they run latency-bound on part of the GPU and small code-generation differences \
                 between implementations show more than where the GPU is full"
            ));
        }
    }
}

/// The plot: a panel per matrix (they differ in shape, so no line joins them), the versions
/// side by side on each, a marker per implementation (a dot plot: versions are cases, not
/// points of a sweep).
fn matvec_plot(result: &ExperimentResult) -> Option<PlotSpec> {
    let mut spec = PlotSpec::of(result)?;
    let version = |label: &str| {
        let name = label.split(" · ").next().unwrap_or(label);
        name.split(" (").next().unwrap_or(name).to_string()
    };
    let mut versions: Vec<String> = Vec::new();
    for s in &result.series {
        let v = version(&s.label);
        if !versions.contains(&v) {
            versions.push(v);
        }
    }
    // One legend entry per implementation, the Rust versions on the whitepaper's own grid apart.
    let legend = |s: &Series| {
        if s.key.variant == PAPER_GRID {
            format!("{} ({PAPER_GRID})", s.key.implementation.label())
        } else {
            s.key.implementation.label().to_string()
        }
    };
    let mut entries: Vec<String> = Vec::new();
    let mut panels: Vec<Panel> = Vec::new();
    for height in result.values() {
        let title = if height == WHITEPAPER_SHAPE.1 as i64 {
            format!("{height} × {} (the whitepaper's)", WHITEPAPER_SHAPE.0)
        } else {
            format!("{height} × {LARGE_WIDTH}")
        };
        let mut panel = Panel {
            title,
            reference_lines: result.axis.reference_lines.clone(),
            ..Panel::default()
        };
        for s in &result.series {
            let (Some(point), Some(x)) = (
                s.at(height).and_then(|p| p.value),
                versions.iter().position(|v| *v == version(&s.label)),
            ) else {
                continue;
            };
            let label = legend(s);
            let group = entries.iter().position(|e| *e == label).unwrap_or_else(|| {
                entries.push(label.clone());
                entries.len() - 1
            });
            let plotted = crate::report::PlotPoint::of(x as f64, &point);
            match panel.lines.iter_mut().find(|l| l.label == label) {
                Some(line) => line.points.push(plotted),
                None => panel.lines.push(PlotLine {
                    label,
                    group,
                    implementation: s.key.implementation,
                    points: vec![plotted],
                }),
            }
        }
        if !panel.lines.is_empty() {
            panels.push(panel);
        }
    }
    if panels.is_empty() {
        return None;
    }
    spec.panels = panels;
    spec.x_label = "version (the copy ceiling: vector_copy over M's bytes)".into();
    spec.x_ticks = XTicks::Categories(versions);
    Some(spec)
}

impl SectionHooks for Matvec {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram)]
    }

    fn plot(&self, result: &ExperimentResult, _report: &Report) -> Option<PlotSpec> {
        matvec_plot(result)
    }

    fn headline(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let height = WHITEPAPER_SHAPE.1 as i64;
        let copy = result
            .variant("vector_copy", Implementation::Rust, CEILING)?
            .median_at(height)?;
        let (best, gbps) = result
            .series
            .iter()
            .filter(|s| s.key.kernel.starts_with("matvec_") && s.key.implementation == Implementation::Rust)
            .filter_map(|s| Some((s, s.median_at(height)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(format!(
            "on the whitepaper's {height} × {} matrix the best Rust version ({}) moves {gbps:.0} GB/s, {:.1}% of \
             the copy ceiling ({copy:.0} GB/s)",
            WHITEPAPER_SHAPE.0,
            best.label.trim_end_matches(" · Rust"),
            100.0 * gbps / copy
        ))
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let ceiling = result.variant("vector_copy", Implementation::Rust, CEILING);
        result
            .values()
            .into_iter()
            .filter_map(|height| {
                let best = result
                    .series
                    .iter()
                    .filter(|s| s.key.kernel.starts_with("matvec_") && s.key.implementation == Implementation::Rust)
                    .filter_map(|s| s.median_at(height).map(|g| (s, g)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))?;
                let copy = ceiling?.median_at(height)?;
                Some(format!(
                    "**Height {height}.** Best Rust version: {} at {:.1} GB/s = {:.1}% of the copy ceiling measured \
                     in the same run ({copy:.1} GB/s).",
                    best.0.label,
                    best.1,
                    100.0 * best.1 / copy
                ))
            })
            .collect()
    }

    /// The whitepaper's Table 1, every implementation side by side: one row
    /// per version, the GTX 285 time, then per shape ms, GB/s, the speedup
    /// over Listing 2 and Rust over each twin.
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let heights = result.values();
        let twins: Vec<Implementation> = [Implementation::CudaC, Implementation::OpenClC]
            .into_iter()
            .filter(|t| result.series.iter().any(|s| s.key.implementation == *t))
            .collect();
        let _ = write!(out, "| version | {WHITEPAPER_DEVICE} ms |");
        for &h in &heights {
            let _ = write!(out, " h={h}: ms | GB/s | speedup vs Listing 2 |");
            for t in &twins {
                let _ = write!(out, " Rust/{} |", t.label());
            }
        }
        let _ = writeln!(out);
        let per_height = 3 + twins.len();
        let _ = writeln!(out, "|---|---:|{}", "---:|".repeat(per_height * heights.len()));
        // Series by key, and Listing 2 per implementation, found once (not once per row).
        let mut by_key: HashMap<&SeriesKey, &Series> = HashMap::new();
        let mut listing2s: HashMap<Implementation, &Series> = HashMap::new();
        for s in &result.series {
            by_key.entry(&s.key).or_insert(s);
            if s.key.kernel == "matvec_row_per_thread" {
                listing2s.entry(s.key.implementation).or_insert(s);
            }
        }
        for s in &result.series {
            let listing2 = listing2s.get(&s.key.implementation).copied();
            let paper = value_of(MATVEC, &s.key.kernel, WHITEPAPER_DEVICE)
                .filter(|_| s.key.variant.is_empty())
                .map(|ms| format!("{ms}"))
                .unwrap_or_else(|| "—".into());
            let _ = write!(out, "| {} | {paper} |", s.label);
            for &h in &heights {
                let point = s.at(h);
                let ms = point
                    .and_then(|p| p.median_ms())
                    .map(|t| format!("{t:.3}"))
                    .unwrap_or_else(|| "—".into());
                let speedup = match (
                    listing2.and_then(|b| b.at(h)).and_then(|p| p.median_ms()),
                    point.and_then(|p| p.median_ms()),
                ) {
                    (Some(b), Some(p)) if s.key.kernel.starts_with("matvec_") => format!("{:.1}x", b / p),
                    _ => "—".into(),
                };
                let _ = write!(out, " {ms} | {} | {speedup} |", point_cell(point));
                for &t in &twins {
                    let ratio = (s.key.implementation == Implementation::Rust)
                        .then(|| by_key.get(&s.key.with_implementation(t)).copied())
                        .flatten()
                        .and_then(|twin| result.rust_over(s, twin, PointKey::Value(h)))
                        .map(|r| format!("{r:.3}"))
                        .unwrap_or_else(|| "—".into());
                    let _ = write!(out, " {ratio} |");
                }
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "\nGB/s cells: median (min–max over the samples).");
        Some(out)
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let height = WHITEPAPER_SHAPE.1 as i64;
        let point = |version: MatVecVersion, variant: &str| {
            result
                .variant(version.kernel(), Implementation::Rust, variant)?
                .at(height)
        };
        claims()
            .iter()
            .zip(table_steps())
            .filter_map(|(claim, (before, after, variant))| {
                let (b, a) = (point(before, variant)?, point(after, variant)?);
                let factor = slower_by(b, a)?;
                Some(claim.grade(
                    factor,
                    format!(
                        "60989 x 1100, Rust{}: {} {:.3} ms → {} {:.3} ms ({}x faster)",
                        if variant.is_empty() {
                            ", one full wave"
                        } else {
                            ", the paper's grid"
                        },
                        before.label(),
                        b.median_ms()?,
                        after.label(),
                        a.median_ms()?,
                        factor.text(2)
                    ),
                    result.device,
                ))
            })
            .collect()
    }
}

/// Table 1's steps, each listing against the one before it: on the paper's
/// grid (variant [`PAPER_GRID`]), then on one full wave (no variant).
fn table_steps() -> Vec<(MatVecVersion, MatVecVersion, &'static str)> {
    let paper_versions = &MatVecVersion::ALL[..6];
    [PAPER_GRID, ""]
        .into_iter()
        .flat_map(|variant| paper_versions.windows(2).map(move |w| (w[0], w[1], variant)))
        .collect()
}

/// The claims the experiment grades: every step of Table 1 (GTX 285 times),
/// on the paper's grid and on one full wave.
pub fn claims() -> Vec<Claim> {
    const IDS: [&str; 10] = [
        "whitepaper-table1-listing3-paper-grid",
        "whitepaper-table1-listing4-paper-grid",
        "whitepaper-table1-listing5-paper-grid",
        "whitepaper-table1-listing6-paper-grid",
        "whitepaper-table1-listing7-paper-grid",
        "whitepaper-table1-listing3-full-wave",
        "whitepaper-table1-listing4-full-wave",
        "whitepaper-table1-listing5-full-wave",
        "whitepaper-table1-listing6-full-wave",
        "whitepaper-table1-listing7-full-wave",
    ];
    let paper = |v: MatVecVersion| value_of(MATVEC, v.kernel(), WHITEPAPER_DEVICE).unwrap_or(f64::NAN);
    IDS.into_iter()
        .zip(table_steps())
        .map(|(id, (before, after, variant))| Claim {
            id,
            source: "OpenCL whitepaper, Table 1",
            claim: format!(
                "{} takes matrix-vector from {} ms to {} ms on the GTX 285 (Listing {} → {})",
                step_claim(after),
                paper(before),
                paper(after),
                before.listing(),
                after.listing()
            ),
            rule: Rule::Factor {
                claimed: paper(before) / paper(after),
            },
            reads: format!(
                "{} over {} · Rust, time at 60989 x 1100, {}",
                before.kernel(),
                after.kernel(),
                if variant.is_empty() {
                    "one full wave of blocks"
                } else {
                    "the paper's 60 work-groups of 256 (239 for Listing 2)"
                }
            ),
            experiment: "matvec",
        })
        .collect()
}

/// What the step to `version` changes, in our words.
fn step_claim(version: MatVecVersion) -> &'static str {
    match version.listing() {
        3 => "A grid-stride loop over rows (fewer work-groups than rows)",
        4 => "A work-group per row, its work-items reading the row coalesced and summing serially",
        5 => "A tree reduction in local memory (interleaved, 2-way bank conflicts)",
        6 => "A tree reduction with sequential addressing (no bank conflicts)",
        _ => "Unrolling the reduction's last warp",
    }
}
