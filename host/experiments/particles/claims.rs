//! The notes' claims about block shapes, measured: their table said the
//! frame rate hardly depends on the block shape (vsync held it at 75 fps),
//! that one-thread blocks and `1 × 256` columns are slower, and their
//! kernel used 16 × 16 blocks. Graded on their own population (256 × 256)
//! with the Rust fountain; the large population's figure is given beside.

use super::population::population_variant;
use super::tables::{Extremes, ShapeRate, extremes, fastest_and_slowest, table_series};
use super::{LARGE_GRID, shape_key};
use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid, ParticleSystem};
use crate::report::{Claim, ExperimentResult, LedgerRow, Point, Rule, Series, Spread};
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

/// The rule for "the same rate for every shape": the fastest of the shapes
/// within 10% of the slowest holds, within 50% is weaker, beyond is gone.
pub const LEVEL_RULE: Rule = Rule::NoExtraCost {
    holds_within: 1.10,
    weaker_within: 1.5,
};

/// The rule for "16 × 16 is a good choice": its share of the fastest shape's rate.
pub const GOOD_CHOICE_RULE: Rule = Rule::AtLeast {
    holds_at: 0.9,
    weaker_at: 0.5,
    unit: "of the fastest shape's rate",
};

/// The claims the experiment grades.
pub fn claims() -> Vec<Claim> {
    let claim = |id, text: &str, rule, reads: &str| Claim {
        id,
        source: SOURCE,
        claim: text.into(),
        rule,
        reads: reads.into(),
        experiment: "particles",
    };
    vec![
        claim(
            "notes-block-shapes-level",
            "The 256×256 fountain runs at the same rate with every block shape from 4×4 to 256×1 (72–75 fps, held \
             by the display's 75 Hz refresh)",
            LEVEL_RULE,
            "particle_fountain · Rust at 256×256: the fastest over the slowest update rate of the shapes the notes \
             measured at 72 fps or more",
        ),
        claim(
            "notes-block-1x1",
            "Blocks of one thread run the fountain 1.5× slower than the best shape (49 vs 75 fps)",
            Rule::Factor {
                claimed: 75.0 / notes_fps((1, 1)),
            },
            "particle_fountain · Rust at 256×256: the fastest shape's update rate over 1×1's",
        ),
        claim(
            "notes-block-1x256",
            "Blocks of 1×256 threads (a column) run the fountain 1.2× slower than the best shape (61 vs 75 fps)",
            Rule::Factor {
                claimed: 75.0 / notes_fps((1, 256)),
            },
            "particle_fountain · Rust at 256×256: the fastest shape's update rate over 1×256's",
        ),
        claim(
            "notes-block-16x16",
            "16×16 blocks, the notes' choice, are as fast as any shape",
            GOOD_CHOICE_RULE,
            "particle_fountain · Rust at 256×256: 16×16's update rate over the fastest shape's",
        ),
    ]
}

/// The point of `shape` in `series`.
fn shape_point(series: &Series, shape: (u32, u32)) -> Option<&Point> {
    let row = NOTES_BLOCK_SHAPE_FPS.iter().position(|&(s, _)| s == shape)?;
    series.point(shape_key(row))
}

/// How many times `a`'s update rate `b`'s is, with its spread.
fn rate_ratio(series: &Series, a: (u32, u32), b: (u32, u32)) -> Option<Spread> {
    Some(Spread::ratio(
        shape_point(series, a)?.value?,
        shape_point(series, b)?.value?,
    ))
}

fn rate(series: &Series, shape: (u32, u32)) -> Option<f64> {
    shape_point(series, shape)?.median()
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
    let claims = claims();
    let large = rust_fountain(result, LARGE_GRID);
    let large_text = |f: &dyn Fn(&Series) -> Option<String>| {
        large
            .and_then(f)
            .map(|t| format!("; at {}: {t}", population_variant(LARGE_GRID)))
            .unwrap_or_default()
    };
    let mut rows = Vec::new();
    let level = level_shapes();
    if let Some(Extremes { fastest, slowest }) = spread_of(notes, &level)
        && let Some(spread) = rate_ratio(notes, fastest.shape, slowest.shape)
    {
        let (fast, fs, slow, ss) = (fastest.rate, fastest.shape, slowest.rate, slowest.shape);
        let beside = large_text(&|s| spread_of(s, &level).map(|e| format!("{:.2}×", e.fastest.rate / e.slowest.rate)));
        rows.push(claims[0].grade(
            spread,
            format!(
                "kernel update rate over those {} shapes, Rust: fastest {}×{} {fast:.2}, slowest {}×{} {slow:.2} G \
                 updates/s, {}×{beside}",
                level.len(),
                fs.0,
                fs.1,
                ss.0,
                ss.1,
                spread.text(2)
            ),
            result.device,
        ));
    }
    let best = fastest_and_slowest(notes).map(|e| (e.fastest.shape, e.fastest.rate));
    for (claim, shape) in [(&claims[1], (1, 1)), (&claims[2], (1, 256))] {
        let (Some((best_shape, best_rate)), Some(r)) = (best, rate(notes, shape)) else {
            continue;
        };
        let Some(factor) = rate_ratio(notes, best_shape, shape) else {
            continue;
        };
        let beside = large_text(&|s| {
            let b = fastest_and_slowest(s)?.fastest.rate;
            Some(format!("{:.1}×", b / rate(s, shape)?))
        });
        rows.push(claim.grade(
            factor,
            format!(
                "Rust, 256×256: {}×{} {r:.3} G updates/s, the fastest ({}×{}) {best_rate:.2}: {}×{beside}",
                shape.0,
                shape.1,
                best_shape.0,
                best_shape.1,
                factor.text(1)
            ),
            result.device,
        ));
    }
    if let (Some((best_shape, best_rate)), Some(r)) = (best, rate(notes, (16, 16)))
        && let Some(share) = rate_ratio(notes, (16, 16), best_shape)
    {
        let beside = large_text(&|s| {
            let b = fastest_and_slowest(s)?.fastest.rate;
            Some(format!("{:.0}% of the fastest", 100.0 * rate(s, (16, 16))? / b))
        });
        rows.push(claims[3].grade(
            share,
            format!(
                "Rust, 256×256: 16×16 {r:.2} G updates/s, {:.0}% ({:.0}–{:.0}%) of the fastest ({}×{}, \
                 {best_rate:.2}){beside}",
                100.0 * share.median,
                100.0 * share.low,
                100.0 * share.high,
                best_shape.0,
                best_shape.1
            ),
            result.device,
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::{GOOD_CHOICE_RULE, LEVEL_RULE, ledger, level_shapes};
    use crate::experiments::particles::population::population_variant;
    use crate::experiments::particles::{LARGE_GRID, shape_key, step_point};
    use crate::particle_scene::{NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, ParticleGrid};
    use crate::report::{Axis, ExperimentResult, Series, SeriesKey, Status, Verdict};
    use crate::testbed::Implementation;

    #[test]
    fn verdicts_follow_their_rules() {
        assert_eq!(LEVEL_RULE.verdict_at(1.0), Verdict::Holds);
        assert_eq!(LEVEL_RULE.verdict_at(1.10), Verdict::Holds);
        assert_eq!(LEVEL_RULE.verdict_at(1.2), Verdict::Weaker);
        assert_eq!(LEVEL_RULE.verdict_at(1.6), Verdict::Gone);
        assert_eq!(LEVEL_RULE.verdict_at(f64::NAN), Verdict::Failed);
        assert_eq!(GOOD_CHOICE_RULE.verdict_at(0.95), Verdict::Holds);
        assert_eq!(GOOD_CHOICE_RULE.verdict_at(0.6), Verdict::Weaker);
        assert_eq!(GOOD_CHOICE_RULE.verdict_at(0.3), Verdict::Gone);
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
            Some(Verdict::Stronger),
            "10x against 1.53x claimed: an effect 17 times the claimed one"
        );
        assert_eq!(
            verdict("notes-block-1x256"),
            Some(Verdict::Stronger),
            "2x against 1.23x"
        );
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
