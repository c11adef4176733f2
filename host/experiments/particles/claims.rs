//! The notes' claims about block shapes, measured: their table said the
//! frame rate hardly depends on the block shape (vsync held it at 75 fps),
//! that one-thread blocks and `1 × 256` columns are slower, and their
//! kernel used 16 × 16 blocks. Graded on their own population (256 × 256)
//! with the Rust fountain; the large population's figure is given beside.

use super::population::population_variant;
use super::tables::{Extremes, ShapeRate, extremes, fastest_and_slowest, table_series};
use super::{LARGE_GRID, shape_key};
use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid, ParticleSystem};
use crate::report::{ExperimentResult, LedgerRow, Series, Verdict};
use crate::testbed::Implementation;

const SOURCE: &str = "Lecture notes on the SDK particle samples, block-shape table";

/// The shapes the notes measured at 72 fps or more: "the same" frame rate.
pub fn level_shapes() -> Vec<(u32, u32)> {
    NOTES_BLOCK_SHAPE_FPS
        .iter()
        .filter(|(_, fps)| *fps >= 72.0)
        .map(|&(shape, _)| shape)
        .collect()
}

/// The rule for "the same rate for every shape": holds when the fastest of
/// the shapes is within 10% of the slowest, weaker within 50%, gone beyond.
pub const LEVEL_RULE: &str = "holds when the fastest of these shapes is at most 1.10× the slowest; weaker up to \
    1.5×; gone beyond";

pub fn level_verdict(spread: f64) -> Verdict {
    if !spread.is_finite() {
        Verdict::Gone
    } else if spread <= 1.10 {
        Verdict::Holds
    } else if spread <= 1.5 {
        Verdict::Weaker
    } else {
        Verdict::Gone
    }
}

/// The rule for "16 × 16 is a good choice": holds at 90% or more of the
/// fastest shape's rate, weaker at 50% or more, gone below.
pub const GOOD_CHOICE_RULE: &str = "holds when 16×16 reaches at least 90% of the fastest shape's rate; weaker at \
    50% or more; gone below";

pub fn good_choice_verdict(share_of_fastest: f64) -> Verdict {
    if !share_of_fastest.is_finite() {
        Verdict::Gone
    } else if share_of_fastest >= 0.9 {
        Verdict::Holds
    } else if share_of_fastest >= 0.5 {
        Verdict::Weaker
    } else {
        Verdict::Gone
    }
}

fn rate(series: &Series, shape: (u32, u32)) -> Option<f64> {
    let row = NOTES_BLOCK_SHAPE_FPS.iter().position(|&(s, _)| s == shape)?;
    series.point(shape_key(row))?.median()
}

fn notes_fps(shape: (u32, u32)) -> f64 {
    NOTES_BLOCK_SHAPE_FPS
        .iter()
        .find(|&&(s, _)| s == shape)
        .map_or(f64::NAN, |&(_, fps)| fps)
}

/// The fastest and slowest among `shapes`; `None` unless each has a rate.
fn spread_of(series: &Series, shapes: &[(u32, u32)]) -> Option<Extremes> {
    let rates: Vec<ShapeRate> = shapes
        .iter()
        .filter_map(|&shape| {
            Some(ShapeRate {
                shape,
                rate: rate(series, shape)?,
            })
        })
        .collect();
    (rates.len() == shapes.len()).then_some(())?;
    extremes(&rates)
}

fn rust_fountain(result: &ExperimentResult, grid: ParticleGrid) -> Option<&Series> {
    table_series(result, ParticleSystem::Fountain, Implementation::Rust, grid)
}

/// The ledger rows the result measures.
pub fn ledger(result: &ExperimentResult) -> Vec<LedgerRow> {
    let Some(notes) = rust_fountain(result, NOTES_GRID) else {
        return Vec::new();
    };
    let large = rust_fountain(result, LARGE_GRID);
    let large_text = |f: &dyn Fn(&Series) -> Option<String>| {
        large
            .and_then(f)
            .map(|t| format!("; at {}: {t}", population_variant(LARGE_GRID)))
            .unwrap_or_default()
    };
    let row = |id: &str, claim: &str, measured: String, verdict: Verdict, rule: String| LedgerRow {
        id: id.into(),
        source: SOURCE.into(),
        claim: claim.into(),
        measured,
        verdict,
        rule,
        experiment: result.name.clone(),
        device: result.device,
    };
    let mut rows = Vec::new();
    let level = level_shapes();
    if let Some(Extremes { fastest, slowest }) = spread_of(notes, &level) {
        let (fast, fs, slow, ss) = (fastest.rate, fastest.shape, slowest.rate, slowest.shape);
        let spread = fast / slow;
        let beside = large_text(&|s| spread_of(s, &level).map(|e| format!("{:.2}×", e.fastest.rate / e.slowest.rate)));
        rows.push(row(
            "notes-block-shapes-level",
            "The 256×256 fountain runs at the same rate with every block shape from 4×4 to 256×1 (72–75 fps, held \
             by the display's 75 Hz refresh)",
            format!(
                "kernel update rate over those {} shapes, Rust: fastest {}×{} {fast:.2}, slowest {}×{} {slow:.2} G \
                 updates/s, {spread:.2}×{beside}",
                level.len(),
                fs.0,
                fs.1,
                ss.0,
                ss.1
            ),
            level_verdict(spread),
            LEVEL_RULE.into(),
        ));
    }
    let best = fastest_and_slowest(notes).map(|e| (e.fastest.shape, e.fastest.rate));
    for (id, shape, claim) in [
        (
            "notes-block-1x1",
            (1, 1),
            "Blocks of one thread run the fountain 1.5× slower than the best shape (49 vs 75 fps)",
        ),
        (
            "notes-block-1x256",
            (1, 256),
            "Blocks of 1×256 threads (a column) run the fountain 1.2× slower than the best shape (61 vs 75 fps)",
        ),
    ] {
        let (Some((best_shape, best_rate)), Some(r)) = (best, rate(notes, shape)) else {
            continue;
        };
        let beside = large_text(&|s| {
            let b = fastest_and_slowest(s)?.fastest.rate;
            Some(format!("{:.1}×", b / rate(s, shape)?))
        });
        rows.push(LedgerRow::factor(
            id,
            SOURCE,
            claim,
            75.0 / notes_fps(shape),
            best_rate / r,
            format!(
                "Rust, 256×256: {}×{} {r:.3} G updates/s, the fastest ({}×{}) {best_rate:.2}: {:.1}×{beside}",
                shape.0,
                shape.1,
                best_shape.0,
                best_shape.1,
                best_rate / r
            ),
            &result.name,
            result.device,
        ));
    }
    if let (Some((best_shape, best_rate)), Some(r)) = (best, rate(notes, (16, 16))) {
        let share = r / best_rate;
        let beside = large_text(&|s| {
            let b = fastest_and_slowest(s)?.fastest.rate;
            Some(format!("{:.0}% of the fastest", 100.0 * rate(s, (16, 16))? / b))
        });
        rows.push(row(
            "notes-block-16x16",
            "16×16 blocks, the notes' choice, are as fast as any shape",
            format!(
                "Rust, 256×256: 16×16 {r:.2} G updates/s, {:.0}% of the fastest ({}×{}, {best_rate:.2}){beside}",
                100.0 * share,
                best_shape.0,
                best_shape.1
            ),
            good_choice_verdict(share),
            GOOD_CHOICE_RULE.into(),
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::{good_choice_verdict, ledger, level_shapes, level_verdict};
    use crate::experiments::particles::population::population_variant;
    use crate::experiments::particles::{LARGE_GRID, shape_key, step_point};
    use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid};
    use crate::report::{Axis, ExperimentResult, Series, SeriesKey, Status, Verdict};
    use crate::testbed::Implementation;

    #[test]
    fn verdicts_follow_their_rules() {
        assert_eq!(level_verdict(1.0), Verdict::Holds);
        assert_eq!(level_verdict(1.10), Verdict::Holds);
        assert_eq!(level_verdict(1.2), Verdict::Weaker);
        assert_eq!(level_verdict(1.6), Verdict::Gone);
        assert_eq!(level_verdict(f64::NAN), Verdict::Gone);
        assert_eq!(good_choice_verdict(0.95), Verdict::Holds);
        assert_eq!(good_choice_verdict(0.6), Verdict::Weaker);
        assert_eq!(good_choice_verdict(0.3), Verdict::Gone);
        assert_eq!(level_shapes().len(), 9, "the nine shapes at 72 fps or more");
    }

    /// A result whose Rust fountain at `grid` runs each shape at `ms(shape)` per step.
    fn series(grid: ParticleGrid, ms: impl Fn((u32, u32)) -> f64) -> Series {
        let key = SeriesKey::new("particle_fountain", Implementation::Rust, "f32x4").variant(population_variant(grid));
        let mut series = Series::new(key, "fountain");
        for (row, (shape, _)) in NOTES_BLOCK_SHAPE_FPS.into_iter().enumerate() {
            let t = ms(shape);
            series
                .points
                .extend(step_point(shape_key(row), grid, &[t, t * 1.01, t * 0.99], None));
        }
        series
    }

    fn result(series: Vec<Series>) -> ExperimentResult {
        ExperimentResult {
            name: "particles".into(),
            title: String::new(),
            source: String::new(),
            device: Some(0),
            status: Status::Ok,
            axis: Axis::lines("block", super::super::update_rate()),
            byte_counting: String::new(),
            setup: Vec::new(),
            series,
            waived: Vec::new(),
            notes: Vec::new(),
            artifacts: Vec::new(),
        }
    }

    #[test]
    fn rows_grade_the_notes_population() {
        // Launch-bound: every shape of 32 threads or more alike; fewer threads and columns slower.
        let ms = |(x, y): (u32, u32)| match (x, y) {
            (1, 1) => 0.040,
            (2, 2) => 0.012,
            (4, 4) => 0.007,
            (1, 256) => 0.008,
            _ => 0.004,
        };
        let rows = ledger(&result(vec![series(NOTES_GRID, ms), series(LARGE_GRID, |_| 0.5)]));
        let verdict = |id: &str| rows.iter().find(|r| r.id == id).map(|r| r.verdict);
        assert_eq!(
            verdict("notes-block-shapes-level"),
            Some(Verdict::Gone),
            "4x4 is 1.75x slower"
        );
        assert_eq!(
            verdict("notes-block-1x1"),
            Some(Verdict::Holds),
            "10x against 1.53x claimed"
        );
        assert_eq!(verdict("notes-block-1x256"), Some(Verdict::Holds), "2x against 1.23x");
        assert_eq!(verdict("notes-block-16x16"), Some(Verdict::Holds));
        let level = rows.iter().find(|r| r.id == "notes-block-shapes-level").unwrap();
        assert!(level.measured.contains("at 4096x4096: 1.00×"), "{}", level.measured);
        // Every shape alike: the notes' picture, without the display.
        let rows = ledger(&result(vec![series(NOTES_GRID, |_| 0.004)]));
        assert_eq!(
            rows.iter().map(|r| r.verdict).collect::<Vec<_>>(),
            [Verdict::Holds, Verdict::Gone, Verdict::Gone, Verdict::Holds]
        );
        assert!(ledger(&result(Vec::new())).is_empty());
    }
}
