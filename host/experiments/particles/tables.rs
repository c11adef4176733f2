//! The particles section of report.md: the notes' block-shape table redone
//! for each population (their frame rates quoted beside today's update
//! rates, GB/s, time per step, Rust over the CUDA C twin and what limits the
//! step), the checkpoint run, the interop frames, and the narrative.

use std::fmt::Write;

use super::checkpoint_run::CHECKPOINTS;
use super::interop_frames::INTEROP;
use super::population::population_variant;
use super::step_limits::{GpuFigures, StepFigures, step_limit};
use super::{POPULATIONS, interop_key, shape_key};
use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid, ParticleSystem};
use crate::report::{ExperimentResult, Point, Report, Series, point_cell};
use crate::testbed::Implementation;

/// The notes' frames per second as particle updates per second (one step
/// per frame of their 256 × 256 particles), in G updates/s.
pub fn notes_rate(fps: f64) -> f64 {
    fps * NOTES_GRID.particles() as f64 / 1e9
}

/// The series of `system` by `implementation` at `grid` in the block-shape table.
pub fn table_series(
    result: &ExperimentResult,
    system: ParticleSystem,
    implementation: Implementation,
    grid: ParticleGrid,
) -> Option<&Series> {
    result.variant(system.kernel(), implementation, &population_variant(grid))
}

/// What the limit rule needs of the GPU the result ran on.
fn gpu_figures(result: &ExperimentResult, report: &Report) -> Option<GpuFigures> {
    let device = report.device(result.device.unwrap_or(0))?;
    Some(GpuFigures {
        peak_gbps: device.theoretical_bandwidth_gbps,
        l2_bytes: device.l2_cache_bytes.max(0) as u64,
    })
}

/// The limit of one measured point, by [`step_limit`].
pub fn point_limit(point: &Point, block: (u32, u32), gpu: &GpuFigures) -> Option<String> {
    let ms = point.median_ms()?;
    Some(step_limit(
        &StepFigures {
            block,
            bytes: point.bytes,
            ms_per_step: ms,
            gbps: point.bytes as f64 / 1e9 / (ms / 1e3),
        },
        gpu,
    ))
}

fn number(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "—".into(), |v| format!("{v:.digits$}"))
}

/// The block-shape table of one population.
fn shape_table(result: &ExperimentResult, grid: ParticleGrid, gpu: Option<&GpuFigures>, out: &mut String) {
    let systems: Vec<(ParticleSystem, &Series)> = ParticleSystem::ALL
        .into_iter()
        .filter_map(|s| Some((s, table_series(result, s, Implementation::Rust, grid)?)))
        .collect();
    if systems.is_empty() {
        return;
    }
    let notes = grid == NOTES_GRID;
    let _ = writeln!(
        out,
        "**{}×{} particles ({:.1} MB per step)**{}: update rates of the Rust kernels, median (min–max) over the \
         samples; µs per step; Rust / CUDA C (> 1: Rust faster); the limit of the fountain's step today.\n",
        grid.width,
        grid.height,
        (grid.particles() as u64 * crate::particle_scene::PARTICLE_BYTES_PER_STEP) as f64 / 1e6,
        if notes { " — the notes' population" } else { "" }
    );
    let _ = write!(out, "| block | threads | notes' fps (256×256; 75 = vsync) |");
    if notes {
        let _ = write!(out, " notes' G updates/s |");
    }
    for (system, _) in &systems {
        let s = system.label();
        let _ = write!(
            out,
            " {s}: G updates/s | {s}: GB/s | {s}: µs per step | {s}: Rust / CUDA C |"
        );
    }
    let _ = writeln!(out, " limit today |");
    let columns = 3 + usize::from(notes) + 4 * systems.len() + 1;
    let _ = writeln!(out, "|{}", "---:|".repeat(columns));
    for (row, ((bx, by), fps)) in NOTES_BLOCK_SHAPE_FPS.into_iter().enumerate() {
        let key = shape_key(row);
        let _ = write!(out, "| {bx}×{by} | {} | {fps} |", bx * by);
        if notes {
            let _ = write!(out, " {:.4} |", notes_rate(fps));
        }
        for (_, rust) in &systems {
            let point = rust.point(key);
            let ratio = result
                .series(&rust.key.with_implementation(Implementation::CudaC))
                .and_then(|twin| result.rust_over(rust, twin, key));
            let _ = write!(
                out,
                " {} | {} | {} | {} |",
                point_cell(point),
                number(point.and_then(|p| p.extra.get("GB/s").copied()), 0),
                number(point.and_then(Point::median_ms).map(|ms| ms * 1e3), 1),
                number(ratio, 3)
            );
        }
        let limit = systems
            .first()
            .and_then(|(_, rust)| rust.point(key))
            .zip(gpu)
            .and_then(|(p, gpu)| point_limit(p, (bx, by), gpu))
            .unwrap_or_else(|| "—".into());
        let _ = writeln!(out, " {limit} |");
    }
    let _ = writeln!(out);
}

/// The checkpoint runs: one row per checkpoint, a column per series.
fn checkpoint_table(result: &ExperimentResult, out: &mut String) {
    let runs: Vec<&Series> = result.series.iter().filter(|s| s.key.variant == CHECKPOINTS).collect();
    let Some(first) = runs.first() else {
        return;
    };
    let _ = write!(
        out,
        "**The checkpoint runs**: G updates/s over each segment (median, min–max over its samples), the state \
         compared with the CPU simulation at the end of it."
    );
    // Each segment times its steps launch by launch: at the notes' size a step is as short as a launch.
    if let Some(us) = first.points.first().and_then(Point::median_ms).map(|ms| ms * 1e3) {
        let _ = write!(
            out,
            " A step takes about {us:.1} µs here, near a launch's own cost, so these rates are launch-bound and \
             move from run to run (by up to a quarter on an H100); they grade nothing: the block-shape table's \
             CUDA-graph replays give the kernel's own rate."
        );
    }
    let _ = writeln!(out, "\n");
    let _ = write!(out, "| steps |");
    for s in &runs {
        let _ = write!(out, " {} |", s.label);
    }
    let _ = writeln!(out, "\n|---:|{}", "---:|".repeat(runs.len()));
    for point in &first.points {
        let _ = write!(out, "| {} |", point.at);
        for s in &runs {
            let cell = match s.point(point.at) {
                Some(p) if p.status.is_ok() => format!("{} ✓", point_cell(Some(p))),
                other => point_cell(other),
            };
            let _ = write!(out, " {cell} |");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
}

/// The interop frames: one row per series, each phase's median.
fn interop_table(result: &ExperimentResult, out: &mut String) {
    let runs: Vec<&Series> = result.series.iter().filter(|s| s.key.variant == INTEROP).collect();
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "**The interop frames** (medians, ms): map the GL buffer for CUDA, the kernel in it, unmap, draw (GL timer \
         query; host clock to glFinish), read the picture back; the same kernel in plain device memory beside it.\n"
    );
    let _ = writeln!(
        out,
        "| frames | fps | frame | map | kernel (GL buffer) | kernel (plain memory) | unmap | draw, GPU | draw, host | \
         read-back | checked |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"
    );
    for s in runs {
        let Some(p) = s.point(interop_key()) else {
            continue;
        };
        let extra = |name: &str, digits: usize| number(p.extra.get(name).copied(), digits);
        let checked = match p.status.reason() {
            None => "yes".to_string(),
            Some(why) => format!("**FAILED**: {why}"),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {checked} |",
            s.label,
            extra("fps", 0),
            number(p.median_ms(), 3),
            extra("map ms", 3),
            extra("kernel ms", 3),
            extra("kernel ms, plain memory", 3),
            extra("unmap ms", 3),
            extra("draw GPU ms", 3),
            extra("draw host ms", 3),
            extra("read-back ms", 3),
        );
    }
    let _ = writeln!(out);
}

/// Every table of the section.
pub fn tables(result: &ExperimentResult, report: &Report) -> String {
    let gpu = gpu_figures(result, report);
    let mut out = String::new();
    for grid in POPULATIONS {
        shape_table(result, grid, gpu.as_ref(), &mut out);
    }
    checkpoint_table(result, &mut out);
    interop_table(result, &mut out);
    out
}

/// A block shape and its median update rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeRate {
    pub shape: (u32, u32),
    pub rate: f64,
}

/// The fastest and slowest of some shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extremes {
    pub fastest: ShapeRate,
    pub slowest: ShapeRate,
}

/// The fastest and slowest of `rates` (the first of equal rates, in the notes' order).
pub fn extremes(rates: &[ShapeRate]) -> Option<Extremes> {
    Some(Extremes {
        fastest: *rates.iter().reduce(|a, b| if b.rate > a.rate { b } else { a })?,
        slowest: *rates.iter().reduce(|a, b| if b.rate < a.rate { b } else { a })?,
    })
}

/// The fastest and slowest block shapes of a series, by median update rate.
pub fn fastest_and_slowest(series: &Series) -> Option<Extremes> {
    let rates: Vec<ShapeRate> = series
        .points
        .iter()
        .filter_map(|p| {
            Some(ShapeRate {
                shape: super::shape_of(p.at)?,
                rate: p.median()?,
            })
        })
        .collect();
    extremes(&rates)
}

/// The section's paragraphs: then vs now, what limits the step at each
/// population, and the interop frame.
pub fn narrative(result: &ExperimentResult, report: &Report) -> Vec<String> {
    let mut paragraphs = Vec::new();
    let gpu = gpu_figures(result, report);
    let notes_fountain = table_series(result, ParticleSystem::Fountain, Implementation::Rust, NOTES_GRID);
    if let Some(point) = notes_fountain.and_then(|s| s.point(interop_key()))
        && let (Some(rate), Some(ms)) = (point.median(), point.median_ms())
    {
        paragraphs.push(format!(
            "**Then vs now.** The notes' GPU drew their 256×256 fountain at 75 frames per second with 16×16 blocks \
             and with most other shapes: the display's refresh rate, not the kernel, set that figure. Today one \
             step with 16×16 blocks takes {:.1} µs on the GPU, {rate:.2} G particle updates per second: {:.0} steps \
             a second, {:.0}× the notes' 75.",
            ms * 1e3,
            1e3 / ms,
            1e3 / ms / 75.0
        ));
    }
    for grid in POPULATIONS {
        let Some(series) = table_series(result, ParticleSystem::Fountain, Implementation::Rust, grid) else {
            continue;
        };
        let Some(Extremes { fastest, slowest }) = fastest_and_slowest(series) else {
            continue;
        };
        let ((fx, fy), fast, (sx, sy), slow) = (fastest.shape, fastest.rate, slowest.shape, slowest.rate);
        let limit_of = |shape: (u32, u32)| {
            let key = shape_key(NOTES_BLOCK_SHAPE_FPS.iter().position(|&(s, _)| s == shape).unwrap_or(0));
            series
                .point(key)
                .zip(gpu.as_ref())
                .and_then(|(p, gpu)| point_limit(p, shape, gpu))
                .unwrap_or_else(|| "—".into())
        };
        paragraphs.push(format!(
            "**{}×{} particles.** Fastest shape {fx}×{fy} at {fast:.2} G updates/s ({}); slowest {sx}×{sy} at \
             {slow:.3} G updates/s, {:.1}× slower ({}).",
            grid.width,
            grid.height,
            limit_of((fx, fy)),
            fast / slow,
            limit_of((sx, sy))
        ));
    }
    let interop = result
        .series
        .iter()
        .find(|s| s.key.variant == INTEROP && s.key.implementation == Implementation::Rust);
    if let Some(p) = interop.and_then(|s| s.point(interop_key()))
        && let (Some(frame), Some(kernel), Some(fps)) = (p.median_ms(), p.extra.get("kernel ms"), p.extra.get("fps"))
    {
        let plain = p
            .extra
            .get("kernel ms, plain memory")
            .map(|plain| format!(" (in plain device memory: {plain:.3} ms)"))
            .unwrap_or_default();
        paragraphs.push(format!(
            "**The interop frame.** With no display to wait for, a whole frame of the {} (map, step, unmap, draw, \
             read the picture back) takes {frame:.3} ms, {fps:.0} frames per second; the kernel's {kernel:.3} ms in \
             the mapped OpenGL buffer{plain} is {:.1}% of it. The rest is the hand-over between CUDA and OpenGL, the \
             draw and the read-back.",
            interop.map_or("fountain", |s| s.key.kernel.trim_start_matches("particle_")),
            100.0 * kernel / frame
        ));
    }
    paragraphs
}

#[cfg(test)]
mod tests {
    use super::super::checkpoint_run::CHECKPOINTS;
    use super::super::interop_frames::{INTEROP, frame_point};
    use super::super::population::population_variant;
    use super::super::{LARGE_GRID, shape_key, step_point, update_rate};
    use crate::facts::DeviceInfo;
    use crate::launchers::FrameTimes;
    use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid, ParticleSystem};
    use crate::report::{Axis, ExperimentResult, PlotKind, PointKey, Report, Series, SeriesKey, Status};
    use crate::run_settings::RunSettings;
    use crate::testbed::Implementation;

    fn h100() -> DeviceInfo {
        crate::experiments::ledger_fixtures::device()
    }

    fn key(system: ParticleSystem, implementation: Implementation, variant: &str) -> SeriesKey {
        SeriesKey::new(system.kernel(), implementation, "f32x4").variant(variant)
    }

    /// Block-shape series where 16×16 takes `ms` per step and 1×1 ten times as long.
    fn shapes(system: ParticleSystem, implementation: Implementation, grid: ParticleGrid, ms: f64) -> Series {
        let mut series = Series::new(key(system, implementation, &population_variant(grid)), "shapes");
        for (row, ((x, y), _)) in NOTES_BLOCK_SHAPE_FPS.into_iter().enumerate() {
            let t = if x * y == 1 { 10.0 * ms } else { ms };
            let failure = (system == ParticleSystem::Swarm && (x, y) == (2, 2)).then(|| "particle 7 differs".into());
            series
                .points
                .extend(step_point(shape_key(row), grid, &[t, t, t], failure));
        }
        series
    }

    fn report() -> Report {
        let mut series = Vec::new();
        for system in ParticleSystem::ALL {
            for implementation in [Implementation::Rust, Implementation::CudaC] {
                series.push(shapes(system, implementation, NOTES_GRID, 0.004));
                series.push(shapes(system, implementation, LARGE_GRID, 0.5));
            }
        }
        let mut run = Series::new(key(ParticleSystem::Fountain, Implementation::Rust, CHECKPOINTS), "run");
        for step in [221, 442] {
            run.points
                .extend(step_point(PointKey::Value(step), NOTES_GRID, &[0.004], None));
        }
        series.push(run);
        let frame = FrameTimes {
            map_ms: 0.02,
            kernel_ms: 0.005,
            unmap_ms: 0.01,
            draw_gpu_ms: 0.3,
            draw_host_ms: 0.35,
            read_back_ms: 0.4,
            frame_ms: 1.0,
        };
        let mut interop = Series::new(key(ParticleSystem::Fountain, Implementation::Rust, INTEROP), "interop");
        interop
            .points
            .extend(frame_point(65536, 65536 * 80, &[frame; 5], &[0.004; 5], None));
        series.push(interop);
        let result = ExperimentResult {
            name: "particles".into(),
            title: "Particle systems".into(),
            source: "the notes".into(),
            device: Some(0),
            status: Status::Ok,
            axis: Axis::lines("block", update_rate()).plot(PlotKind::None),
            byte_counting: String::new(),
            setup: Vec::new(),
            series,
            waived: Vec::new(),
            notes: Vec::new(),
            artifacts: Vec::new(),
        };
        Report::new(
            vec![h100()],
            &RunSettings::default(),
            Vec::new(),
            Vec::new(),
            vec![result],
        )
    }

    #[test]
    fn the_section_sets_todays_figures_beside_the_notes() {
        let report = report();
        let md = report.markdown(&crate::experiments::hooks);
        // The notes' table, redone: their fps and its update rate beside ours.
        assert!(
            md.contains("| 16×16 | 256 | 75 | 0.0049 | 16.4 (16.4–16.4) | 1311 | 4.0 | 1.000 |"),
            "{md}"
        );
        assert!(
            md.contains("| 1×1 | 1 | 49 | 0.0032 | 1.6 (1.6–1.6) | 131 | 40.0 | 1.000 |"),
            "{md}"
        );
        // What limits each: launch-bound at the notes' size, DRAM-bound at the large one.
        assert!(md.contains("launch and scheduling: 4.0 µs per step of 5.2 MB"), "{md}");
        assert!(md.contains("DRAM bandwidth: 80% of the 3352 GB/s peak"), "{md}");
        assert!(md.contains("idle lanes: 1 of each warp's 32 threads work"), "{md}");
        // A failed point shows no figure.
        assert!(md.contains("**FAILED**"), "{md}");
        assert!(md.contains("particle 7 differs"), "{md}");
        // The checkpoint run and the interop frames.
        assert!(md.contains("| 221 | 16.4 (16.4–16.4) ✓ |"), "{md}");
        assert!(
            md.contains("| 1000 | 1.000 | 0.020 | 0.005 | 0.004 | 0.010 | 0.300 | 0.350 | 0.400 | yes |"),
            "{md}"
        );
        // The narrative and the ledger.
        assert!(md.contains("Today one step with 16×16 blocks takes 4.0 µs"), "{md}");
        assert!(md.contains("250000 steps a second, 3333× the notes' 75"), "{md}");
        assert!(md.contains(
            "the kernel's 0.005 ms in the mapped OpenGL buffer (in plain device memory: 0.004 ms) is 0.5% of it"
        ));
        assert!(md.contains("Fastest shape 256×1 at 16.38 G updates/s"), "{md}");
        assert!(
            md.contains("slowest 1×1 at 1.638 G updates/s, 10.0× slower (idle lanes: 1 of"),
            "{md}"
        );
        assert!(md.contains("Blocks of one thread run the fountain 1.5× slower"), "{md}");
        // The files render, the block-shape plot among them.
        let rendered = report.render(&crate::experiments::hooks).unwrap();
        assert!(
            rendered
                .files
                .iter()
                .any(|(name, _)| name == "particles-block-shapes.svg")
        );
    }
}
