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
