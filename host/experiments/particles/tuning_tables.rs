//! The particle-tuning section's tables: the notes' tuning steps at 16 × 16
//! (their frame rates beside today's update rates), their second block-shape
//! table (naive against optimised, with the optimised kernel's gain), and
//! the all-pairs swarm.

use std::fmt::Write;

use super::fountain_tuning::{TUNING_BLOCK, TUNING_SHAPES, tuning_key_of};
use super::gravity_swarm::{GRAVITY_BLOCK, PULL_RATE};
use super::population::population_variant;
use crate::particle_scene::{FountainVersion, GRAVITY_GRID, NOTES_GRID, gravity_kernel};
use crate::report::{ExperimentResult, Point};
use crate::testbed::Implementation;

const IMPLEMENTATIONS: [Implementation; 2] = [Implementation::Rust, Implementation::CudaC];

fn version_point(
    result: &ExperimentResult,
    version: FountainVersion,
    implementation: Implementation,
    shape: (u32, u32),
) -> Option<&Point> {
    result
        .variant(version.kernel(), implementation, &population_variant(NOTES_GRID))?
        .point(tuning_key_of(shape)?)
}

fn cell(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "—".into(), |v| format!("{v:.digits$}"))
}

/// The notes' figure for a version at 16 × 16, where they give one.
fn notes_fps(version: FountainVersion) -> &'static str {
    match version {
        FountainVersion::Naive => "730",
        FountainVersion::Staged => "1530 (1515 copying in only)",
        FountainVersion::StagedSynced => "about 1% below",
        FountainVersion::Float4State | FountainVersion::Registers => "—",
    }
}

/// The section's tables in Markdown.
pub fn tables(result: &ExperimentResult) -> String {
    let mut out = String::new();
    let naive = |i| version_point(result, FountainVersion::Naive, i, TUNING_BLOCK).and_then(Point::median);
    let _ = writeln!(
        out,
        "**The tuning steps**, {} particles, {}×{} blocks (G updates/s; × the naive kernel)\n",
        population_variant(NOTES_GRID),
        TUNING_BLOCK.0,
        TUNING_BLOCK.1
    );
    let _ = writeln!(
        out,
        "| version | notes (fps, 9600 GT) | Rust | × naive | CUDA C | × naive |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for version in FountainVersion::ALL {
        let mut row = format!("| {} | {} |", version.label(), notes_fps(version));
        for implementation in IMPLEMENTATIONS {
            let rate = version_point(result, version, implementation, TUNING_BLOCK).and_then(Point::median);
            let gain = rate.zip(naive(implementation)).map(|(r, n)| r / n);
            let _ = write!(row, " {} | {} |", cell(rate, 2), cell(gain, 2));
        }
        let _ = writeln!(out, "{row}");
    }
    let _ = writeln!(out, "\n**The second block-shape table**, Rust (G updates/s)\n");
    let _ = writeln!(out, "| block | grid | naive | optimised | optimised / naive |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    for shape in TUNING_SHAPES {
        let rate = |v| version_point(result, v, Implementation::Rust, shape).and_then(Point::median);
        let (n, o) = (rate(FountainVersion::Naive), rate(FountainVersion::Registers));
        let _ = writeln!(
            out,
            "| {}×{} | {}×{} | {} | {} | {} |",
            shape.0,
            shape.1,
            NOTES_GRID.width.div_ceil(shape.0),
            NOTES_GRID.height.div_ceil(shape.1),
            cell(n, 2),
            cell(o, 2),
            cell(n.zip(o).map(|(n, o)| o / n), 2)
        );
    }
    let _ = writeln!(
        out,
        "\n**The all-pairs swarm**, {} particles, {}×{} blocks\n",
        population_variant(GRAVITY_GRID),
        GRAVITY_BLOCK.0,
        GRAVITY_BLOCK.1
    );
    let _ = writeln!(out, "| kernel | implementation | ms per step | {PULL_RATE} |");
    let _ = writeln!(out, "|---|---|---|---|");
    for tiled in [false, true] {
        for implementation in IMPLEMENTATIONS {
            let point = result
                .variant(gravity_kernel(tiled), implementation, &population_variant(GRAVITY_GRID))
                .and_then(|s| s.point(tuning_key_of(GRAVITY_BLOCK)?));
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                gravity_kernel(tiled),
                implementation.label(),
                cell(point.and_then(Point::median_ms), 3),
                cell(point.and_then(|p| p.extra.get(PULL_RATE).copied()), 1)
            );
        }
    }
    out
}
