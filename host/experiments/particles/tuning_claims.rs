//! The notes' claims about tuning the fountain and about the all-pairs
//! swarm, graded on their own population (256 × 256, graph-timed) with the
//! Rust kernels; the CUDA C twin's figure is given beside.
//!
//! Their figures are frame rates on a 9600 GT (730 fps for the first
//! kernel, 1515 with the state copied into shared memory, 1530 with the
//! write-back through it, all at 16 × 16); their second block-shape table
//! kept only its shapes, not its numbers, so its rows are graded by direction.

use super::fountain_tuning::{TUNING_BLOCK, TUNING_SHAPES, tuning_key_of};
use super::population::population_variant;
use crate::particle_scene::{FountainVersion, GRAVITY_GRID, NOTES_GRID, gravity_kernel};
use crate::report::{Claim, ExperimentResult, LedgerRow, Rule, Series, Spread};
use crate::testbed::Implementation;

const SOURCE: &str = "Lecture notes on the SDK particle samples, tuning the fountain";
const EXPERIMENT: &str = "particle-tuning";

/// The notes' first kernel and their best, in frames per second (9600 GT, 16 × 16).
pub const NOTES_NAIVE_FPS: f64 = 730.0;
pub const NOTES_STAGED_FPS: f64 = 1530.0;

/// "Registers should have a similar effect" and "the barriers cost 1%":
/// the slower over the faster within 5% holds, within 25% is weaker.
pub const SAME_RULE: Rule = Rule::NoExtraCost {
    holds_within: 1.05,
    weaker_within: 1.25,
};

/// The claims the experiment grades, in ledger order.
pub fn claims() -> Vec<Claim> {
    let claim = |id, text: &str, rule, reads: &str| Claim {
        id,
        source: SOURCE,
        claim: text.into(),
        rule,
        reads: reads.into(),
        experiment: EXPERIMENT,
    };
    vec![
        claim(
            "notes-tuning-float4",
            "Particle data as an array of float4 instead of floats makes the fountain faster",
            Rule::Direction,
            "particle_fountain_float4_state over particle_fountain_naive · Rust, 256×256, 16×16 blocks: update rate",
        ),
        claim(
            "notes-tuning-float4-biggest",
            "float4 particle data is a bigger gain than the lesser steps (one read into registers, no fabs)",
            Rule::Direction,
            "Rust, 256×256, 16×16: (float4-state over naive) over (particle_fountain over float4-state)",
        ),
        claim(
            "notes-tuning-total",
            "The tuning takes the fountain from 730 to 1530 fps (2.1×) at 16×16 on a 9600 GT",
            Rule::Factor {
                claimed: NOTES_STAGED_FPS / NOTES_NAIVE_FPS,
            },
            "particle_fountain_staged over particle_fountain_naive · Rust, 256×256, 16×16: update rate",
        ),
        claim(
            "notes-tuning-shared-like-registers",
            "Staging the state in a BLOCK_DIM×BLOCK_DIM shared-memory tile does about what registers do (1515–1530 \
             fps: little work happens in shared memory)",
            SAME_RULE,
            "particle_fountain_staged against particle_fountain · Rust, 256×256, 16×16: the slower's time over the \
             faster's",
        ),
        claim(
            "notes-tuning-syncthreads",
            "Adding __syncthreads to the staged kernel only costs about 1%",
            SAME_RULE,
            "particle_fountain_staged_synced against particle_fountain_staged · Rust, 256×256, 16×16: the slower's \
             time over the faster's",
        ),
        claim(
            "notes-shapes2-optimised",
            "On the newer card the optimised kernel is significantly faster than the naive one across the block \
             shapes of the second table",
            Rule::Direction,
            "particle_fountain over particle_fountain_naive · Rust, 256×256: geometric mean over the table's 10 \
             shapes of the update-rate ratio",
        ),
        claim(
            "notes-shapes2-assignment",
            "How threads are assigned to blocks matters: the same 256 threads laid along a row (256×1) beat a column \
             (1×256)",
            Rule::Direction,
            "particle_fountain · Rust, 256×256: update rate at 256×1 over 1×256",
        ),
        claim(
            "notes-gravity-tiling",
            "The all-pairs swarm, \"most definitely not optimized\", gains from tiling positions through shared memory",
            Rule::Direction,
            "particle_gravity_tiled over particle_gravity · Rust, 64×64 particles, 16×16: update rate",
        ),
    ]
}

fn version_series(
    result: &ExperimentResult,
    version: FountainVersion,
    implementation: Implementation,
) -> Option<&Series> {
    result.variant(version.kernel(), implementation, &population_variant(NOTES_GRID))
}

/// `a`'s update rate over `b`'s at `shape`, as measured by `implementation`.
fn version_ratio(
    result: &ExperimentResult,
    implementation: Implementation,
    (a, b): (FountainVersion, FountainVersion),
    shape: (u32, u32),
) -> Option<Spread> {
    let at = tuning_key_of(shape)?;
    let value = |v| version_series(result, v, implementation)?.point(at)?.value;
    let ratio = Spread::ratio(value(a)?, value(b)?);
    ratio.is_finite().then_some(ratio)
}

/// The slower over the faster of two versions (≥ 1 at the median): a cost, for [`SAME_RULE`].
fn cost(ratio: Spread) -> Spread {
    if ratio.median >= 1.0 { ratio } else { ratio.inverse() }
}

/// `a / b` of two spreads (the low end over the other's high end and the reverse).
fn quotient(a: Spread, b: Spread) -> Spread {
    Spread {
        low: a.low / b.high,
        median: a.median / b.median,
        high: a.high / b.low,
    }
}

/// The geometric mean of spreads, end by end.
fn geometric_mean(spreads: &[Spread]) -> Spread {
    let mean =
        |f: &dyn Fn(&Spread) -> f64| (spreads.iter().map(|s| f(s).ln()).sum::<f64>() / spreads.len() as f64).exp();
    Spread {
        low: mean(&|s| s.low),
        median: mean(&|s| s.median),
        high: mean(&|s| s.high),
    }
}

/// Each row's figure as measured by `implementation`, in [`claims`]'s order (`None`: not measured).
fn figures(result: &ExperimentResult, implementation: Implementation) -> Vec<Option<Spread>> {
    use FountainVersion::{Float4State, Naive, Registers, Staged, StagedSynced};
    let at16 = |pair| version_ratio(result, implementation, pair, TUNING_BLOCK);
    let float4 = at16((Float4State, Naive));
    let lesser = at16((Registers, Float4State));
    let shapes: Option<Vec<Spread>> = TUNING_SHAPES
        .iter()
        .map(|&shape| version_ratio(result, implementation, (Registers, Naive), shape))
        .collect();
    let rate = |tiled| {
        let series = result.variant(gravity_kernel(tiled), implementation, &population_variant(GRAVITY_GRID))?;
        series.point(tuning_key_of((16, 16))?)?.value
    };
    let registers_at = |shape| {
        version_series(result, Registers, implementation)?
            .point(tuning_key_of(shape)?)?
            .value
    };
    let assignment = registers_at((256, 1))
        .zip(registers_at((1, 256)))
        .map(|(a, b)| Spread::ratio(a, b));
    let gravity = match (rate(true), rate(false)) {
        (Some(t), Some(n)) => Some(Spread::ratio(t, n)),
        _ => None,
    };
    vec![
        float4,
        float4.zip(lesser).map(|(a, b)| quotient(a, b)),
        at16((Staged, Naive)),
        at16((Staged, Registers)).map(cost),
        at16((Staged, StagedSynced)).map(cost),
        shapes.map(|s| geometric_mean(&s)),
        assignment,
        gravity.filter(Spread::is_finite),
    ]
}

/// The ledger rows the result measures.
pub fn ledger(result: &ExperimentResult) -> Vec<LedgerRow> {
    if result.series.is_empty() {
        return Vec::new();
    }
    let rust = figures(result, Implementation::Rust);
    let twin = figures(result, Implementation::CudaC);
    claims()
        .iter()
        .zip(rust.into_iter().zip(twin))
        .map(|(claim, (figure, beside))| {
            let Some(figure) = figure else {
                let reason = "a point it reads failed its check or was not measured (see the series)";
                return claim.failed(reason.into(), result.device);
            };
            let beside = beside.map_or_else(String::new, |b| format!("; CUDA C twin {}×", b.text(2)));
            let measured = format!("Rust {}×{beside}", figure.text(2));
            claim.grade(figure, measured, result.device)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{SAME_RULE, claims, ledger};
    use crate::experiments::particles::fountain_tuning::{TUNING_SHAPES, tuning_key_of, versions_at};
    use crate::experiments::particles::population::population_variant;
    use crate::experiments::particles::{step_point, update_rate};
    use crate::particle_scene::{FountainVersion, GRAVITY_GRID, NOTES_GRID, ParticleGrid, gravity_kernel};
    use crate::report::{Axis, ExperimentResult, Rule, Series, SeriesKey, Status, Verdict};
    use crate::testbed::Implementation;

    fn series(kernel: &str, implementation: Implementation, grid: ParticleGrid, ms: &[((u32, u32), f64)]) -> Series {
        let key = SeriesKey::new(kernel, implementation, "f32x4").variant(population_variant(grid));
        let mut series = Series::new(key, kernel.to_string());
        for &(shape, t) in ms {
            let at = tuning_key_of(shape).unwrap();
            series
                .points
                .extend(step_point(at, grid, &[t, t * 1.01, t * 0.99], None));
        }
        series
    }

    /// A result whose every version takes `ms(version, shape)` per step and the
    /// all-pairs swarm `gravity_ms(tiled)`, the same for both implementations.
    fn result(ms: impl Fn(FountainVersion, (u32, u32)) -> f64, gravity_ms: impl Fn(bool) -> f64) -> ExperimentResult {
        let mut all = Vec::new();
        for implementation in [Implementation::Rust, Implementation::CudaC] {
            for version in FountainVersion::ALL {
                let points: Vec<_> = TUNING_SHAPES
                    .iter()
                    .filter(|&&s| versions_at(s).contains(&version))
                    .map(|&s| (s, ms(version, s)))
                    .collect();
                all.push(series(version.kernel(), implementation, NOTES_GRID, &points));
            }
            for tiled in [false, true] {
                let points = [((16, 16), gravity_ms(tiled))];
                all.push(series(gravity_kernel(tiled), implementation, GRAVITY_GRID, &points));
            }
        }
        ExperimentResult {
            name: "particle-tuning".into(),
            title: String::new(),
            source: String::new(),
            device: Some(0),
            status: Status::Ok,
            axis: Axis::lines("block", update_rate()),
            byte_counting: String::new(),
            setup: Vec::new(),
            series: all,
            waived: Vec::new(),
            notes: Vec::new(),
            artifacts: Vec::new(),
        }
    }

    fn verdicts(result: &ExperimentResult) -> Vec<(String, Verdict)> {
        ledger(result).into_iter().map(|r| (r.id, r.verdict)).collect()
    }

    fn verdict(result: &ExperimentResult, id: &str) -> Verdict {
        verdicts(result)
            .into_iter()
            .find(|(i, _)| i == id)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no row {id}"))
    }

    #[test]
    fn rules_grade_their_figures() {
        assert_eq!(SAME_RULE.verdict_at(1.01), Verdict::Holds);
        assert_eq!(SAME_RULE.verdict_at(1.1), Verdict::Weaker);
        assert_eq!(SAME_RULE.verdict_at(1.5), Verdict::Gone);
        let total = claims().into_iter().find(|c| c.id == "notes-tuning-total").unwrap();
        let Rule::Factor { claimed } = total.rule else {
            panic!("a factor")
        };
        assert!((claimed - 2.096).abs() < 0.01, "1530 / 730");
        assert_eq!(claims().len(), 8);
    }

    #[test]
    fn the_notes_picture_holds() {
        use FountainVersion::*;
        // The notes' 9600 GT, as a model: float4 the big step, registers a small one, the tile 1% more, the
        // barriers 1% less; rows faster than columns; tiling the all-pairs loop twice as fast.
        let ms = |v: FountainVersion, (x, y): (u32, u32)| {
            let shape = if x == 1 && y > 1 { 1.5 } else { 1.0 };
            shape
                * match v {
                    Naive => 0.0137,
                    Float4State => 0.0080,
                    Registers => 0.0066,
                    Staged => 0.00654,
                    StagedSynced => 0.0066,
                }
        };
        let r = result(ms, |tiled| if tiled { 0.5 } else { 1.0 });
        assert_eq!(
            verdicts(&r).into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
            [Verdict::Holds; 8],
            "{:#?}",
            ledger(&r)
        );
        let total = ledger(&r)
            .into_iter()
            .find(|row| row.id == "notes-tuning-total")
            .unwrap();
        assert!(
            total.measured.contains("Rust 2.09") && total.measured.contains("CUDA C twin 2.09"),
            "{}",
            total.measured
        );
    }

    #[test]
    fn a_launch_bound_gpu_where_nothing_matters_grades_gone() {
        // Every version and shape at the same time per step: no gain anywhere, the tile and barriers free.
        let r = result(|_, _| 0.003, |_| 0.2);
        for id in [
            "notes-tuning-float4",
            "notes-tuning-total",
            "notes-shapes2-optimised",
            "notes-gravity-tiling",
        ] {
            assert_eq!(verdict(&r, id), Verdict::Gone, "{id}");
        }
        assert_eq!(verdict(&r, "notes-tuning-shared-like-registers"), Verdict::Holds);
        assert_eq!(verdict(&r, "notes-tuning-syncthreads"), Verdict::Holds);
        // Tiling slower than the cache: reversed; 5x faster overall: stronger.
        let r = result(
            |v, _| if v == FountainVersion::Naive { 0.015 } else { 0.003 },
            |tiled| if tiled { 0.3 } else { 0.2 },
        );
        assert_eq!(verdict(&r, "notes-gravity-tiling"), Verdict::Reversed);
        assert_eq!(verdict(&r, "notes-tuning-total"), Verdict::Stronger);
        assert_eq!(
            verdict(&r, "notes-tuning-float4-biggest"),
            Verdict::Holds,
            "all of the gain is float4's"
        );
    }

    #[test]
    fn a_failed_point_fails_its_rows_and_an_empty_result_has_none() {
        let mut r = result(|_, _| 0.004, |_| 0.2);
        let staged = FountainVersion::Staged.kernel();
        for series in r.series.iter_mut().filter(|s| s.key.kernel == staged) {
            for point in &mut series.points {
                point.value = None;
            }
        }
        assert_eq!(verdict(&r, "notes-tuning-total"), Verdict::Failed);
        assert_eq!(verdict(&r, "notes-tuning-float4"), Verdict::Gone);
        r.series.clear();
        assert!(ledger(&r).is_empty());
    }
}
