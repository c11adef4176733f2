//! The math-library advice of the Best Practices Guide §5.1.2–5.1.4, measured
//! as kernel pairs (`kernels-gpu/src/instruction_throughput/math_functions.rs`,
//! twins in `host/cuda_c/math_functions.cu`): `x·x·x` against `pow(x, 3)`,
//! `exp2`/`exp10` against `pow(2, x)`/`pow(10, x)`, `cbrt` against
//! `pow(x, 1/3)`, `sinpi` against `sin(π·x)`, `sincos` against `sin` and `cos`;
//! and the CUDA C twins once more compiled by NVRTC with `-use_fast_math`
//! against without. Rust has no such flag: its fast forms are called by name.
//!
//! Every kernel is an `instructions`-style throughput loop (one full wave of
//! 256-thread blocks, 8 independent chains per thread, rounds calibrated to
//! about half a millisecond per launch), its chains checked against the CPU
//! reference; rates in Gop/s and per clock per SM, with the SASS of each
//! steady loop where `ptxas` and `nvdisasm` are found. The guide's words are
//! about CUDA's own functions, so the rows grade the CUDA C twin; the Rust
//! kernels, which call the device layer (whose only `pow` is `__powf`'s
//! algorithm), are shown beside.

use std::fmt::Write;

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::implementation_sass::{ImplementationSass, sass_for};
use super::instructions::{PER_SM_PER_CLOCK, TARGET_LAUNCH_MS, clock_statement, range_key};
use super::throughput_code::{CHECKED_THREADS, SMALL, measure, throughput_bounds};
use super::throughput_sass::stored_per_operation;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{CompiledSass, ThroughputRunner, fast_math_runner, throughput_runners};
use crate::report::Axis;
use crate::report::{
    Bound, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, Point, Report, Rule, SectionHooks, Series, Spread,
    better_by,
};
use crate::sass::SassModule;
use crate::testbed::{FAST_MATH_OPTION, Implementation};

pub struct MathFunctions;

use ThroughputKernel::{Cbrt, CubeMul, Exp2, Exp10, Pow2, Pow10, PowCube, PowThird, SinCos, SinPiX, Sincos, Sinpi};

const COUNTING: &str = "operations = threads × 8 chains × rounds per launch, one function evaluation (or, for x·x·x, \
    one cube) per chain per round; Gop/s = 1e9 evaluations per second; op/clk/SM = evaluations per second / SMs / the \
    SM clock the device reports as its maximum";

impl Experiment for MathFunctions {
    fn name(&self) -> &'static str {
        "math-functions"
    }
    fn title(&self) -> &'static str {
        "Math functions: specialized calls against general ones, and -use_fast_math"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §5.1.4 (Math Libraries)"
    }
    fn points(&self) -> u64 {
        ThroughputKernel::MATH_FUNCTIONS.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis =
            Axis::lines("arguments (0 = small)", Metric::custom("throughput", "Gop/s", true)).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, COUNTING);
        let (mut runners, waived) = throughput_runners(ctx.device)?;
        result.waive(waived);
        let implementations: Vec<Implementation> = runners.iter().map(|r| r.implementation()).collect();
        let cc = ctx.device.info().architecture();
        let sass = sass_for(&mut result, &implementations, cc);
        let fast_sass = add_fast_math(ctx, &mut result, &mut runners);
        let runner_sass = runner_sass(&runners, &sass, fast_sass.as_ref());
        let mut waves = Vec::new();
        for kernel in ThroughputKernel::MATH_FUNCTIONS {
            for runner in &runners {
                waves.push(runner.wave_blocks(kernel)?);
            }
        }
        let most_blocks = waves.iter().copied().max().unwrap_or(1);
        for runner in &mut runners {
            runner.allocate(most_blocks * THROUGHPUT_BLOCK_THREADS)?;
        }
        let mut waves = waves.into_iter();
        for (done, kernel) in ThroughputKernel::MATH_FUNCTIONS.into_iter().enumerate() {
            if ctx.stop_before(done, ThroughputKernel::MATH_FUNCTIONS.len()) {
                break;
            }
            for (runner, &module_sass) in runners.iter_mut().zip(&runner_sass) {
                let blocks = waves.next().unwrap_or(most_blocks);
                let label = code_label(runner.as_ref());
                ctx.progress.set_message(format!("{} · {label}", kernel.entry()));
                let key = ctx
                    .key(kernel.entry(), runner.implementation(), "f32")
                    .variant(runner.variant());
                let mut series = Series::new(key, format!("{} · {label}", kernel.operation()));
                series
                    .points
                    .extend(measure(ctx, runner.as_mut(), (kernel, blocks), module_sass)?);
                result.series.push(series);
            }
            ctx.progress.inc(1);
        }
        result.setup.push(format!(
            "{THROUGHPUT_CHAINS} independent chains per thread, {THROUGHPUT_BLOCK_THREADS} threads per block, one full \
             wave per launch, rounds calibrated to about {TARGET_LAUNCH_MS} ms per launch; each point's first \
             {CHECKED_THREADS} threads' chains checked against the CPU reference (relative 10^-4: every map contracts)"
        ));
        result.setup.push(format!(
            "the CUDA C twins compiled twice by NVRTC: as the suite's twins, and alone with {FAST_MATH_OPTION} \
             (series variant \"{FAST_MATH_OPTION}\"); Rust has no such option: its kernels call the fast forms by name"
        ));
        Ok(result)
    }
}

/// Adds the runner of the CUDA C twins compiled with [`FAST_MATH_OPTION`]
/// to `runners` and gives their SASS; `None` (the reason waived in `result`)
/// where NVRTC or the CUDA C twins are not there.
fn add_fast_math<'c>(
    ctx: &RunContext<'c>,
    result: &mut ExperimentResult,
    runners: &mut Vec<Box<dyn ThroughputRunner + 'c>>,
) -> Option<CompiledSass> {
    match fast_math_runner(ctx.device)? {
        Ok((runner, sass)) => {
            runners.push(runner);
            Some(sass)
        }
        Err(waived) => {
            result.waive([waived]);
            None
        }
    }
}

/// Each runner's SASS: its implementation's, or the fast-math twins' own.
fn runner_sass<'s>(
    runners: &[Box<dyn ThroughputRunner + '_>],
    sass: &'s [ImplementationSass],
    fast: Option<&'s CompiledSass>,
) -> Vec<Option<&'s SassModule>> {
    runners
        .iter()
        .map(|runner| match runner.variant() {
            "" => sass
                .iter()
                .find(|s| s.implementation == runner.implementation())
                .and_then(|s| s.module().ok()),
            _ => fast.and_then(|s| s.as_ref().as_ref().ok()),
        })
        .collect()
}

/// How a runner's series name its code: the implementation, and the compiler option where one was added.
fn code_label(runner: &dyn ThroughputRunner) -> String {
    match runner.variant() {
        "" => runner.implementation().label().into(),
        option => format!("{} {option}", runner.implementation().label()),
    }
}

/// The point of `kernel` by `implementation` (`variant` "" or [`FAST_MATH_OPTION`]).
fn point<'r>(
    result: &'r ExperimentResult,
    kernel: ThroughputKernel,
    implementation: Implementation,
    variant: &str,
) -> Option<&'r Point> {
    result
        .series
        .iter()
        .find(|s| s.key.kernel == kernel.entry() && s.key.implementation == implementation && s.key.variant == variant)?
        .point(range_key(SMALL))
}

/// How many times `fast`'s throughput `slow`'s is, by `implementation` (`variant`), with its spread.
fn ratio(
    result: &ExperimentResult,
    implementation: Implementation,
    variant: &str,
    (fast, slow): (ThroughputKernel, ThroughputKernel),
) -> Option<Spread> {
    better_by(
        &result.axis.metric,
        point(result, fast, implementation, variant)?,
        point(result, slow, implementation, variant)?,
    )
}

/// The SASS instructions per evaluation of `kernel`'s loop by `implementation` (`variant`), as text.
fn sass_total(
    result: &ExperimentResult,
    kernel: ThroughputKernel,
    implementation: Implementation,
    variant: &str,
) -> Option<String> {
    let per_op = stored_per_operation(point(result, kernel, implementation, variant)?)?;
    Some(format!("{:.0}", per_op.total))
}

/// One pair's figures for a row: the twin's rates and factor, its SASS per
/// evaluation, then the Rust and `-use_fast_math` factors where measured.
fn pair_text(result: &ExperimentResult, (fast, slow): (ThroughputKernel, ThroughputKernel), cuda: Spread) -> String {
    let c = Implementation::CudaC;
    let gops = |k| point(result, k, c, "").and_then(Point::median).unwrap_or(f64::NAN);
    let mut text = format!(
        "{} {:.0} Gop/s vs {} {:.0} Gop/s: {}x",
        fast.operation(),
        gops(fast),
        slow.operation(),
        gops(slow),
        cuda.text(2)
    );
    if let (Some(a), Some(b)) = (sass_total(result, fast, c, ""), sass_total(result, slow, c, "")) {
        let _ = write!(text, " (SASS per evaluation {a} vs {b})");
    }
    if let Some(r) = ratio(result, Implementation::Rust, "", (fast, slow)) {
        let _ = write!(text, "; Rust {}x", r.text(2));
    }
    if let Some(r) = ratio(result, c, FAST_MATH_OPTION, (fast, slow)) {
        let _ = write!(text, "; {FAST_MATH_OPTION} {}x", r.text(2));
    }
    text
}

/// A row graded on the smaller of the CUDA C twin's factors over `pairs` (recommended, replaced).
fn pairs_row(
    result: &ExperimentResult,
    claim: usize,
    pairs: &[(ThroughputKernel, ThroughputKernel)],
) -> Option<LedgerRow> {
    let mut figure: Option<Spread> = None;
    let mut texts = Vec::new();
    for &pair in pairs {
        let cuda = ratio(result, Implementation::CudaC, "", pair)?;
        texts.push(pair_text(result, pair, cuda));
        figure = Some(match figure {
            Some(f) if f.median <= cuda.median => f,
            _ => cuda,
        });
    }
    Some(claims()[claim].grade(figure?, format!("CUDA C twin: {}", texts.join("; ")), result.device))
}

/// The kernels whose code `-use_fast_math` changes, for its row: `powf`, `sinf` and `cosf` calls.
const FAST_MATH_KERNELS: [ThroughputKernel; 4] = [PowCube, Pow10, SinPiX, SinCos];

/// §5.1.4: the twins with `-use_fast_math` against without, the smaller factor over [`FAST_MATH_KERNELS`].
fn fast_math_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let c = Implementation::CudaC;
    let mut figure: Option<Spread> = None;
    let mut texts = Vec::new();
    for kernel in FAST_MATH_KERNELS {
        let factor = better_by(
            &result.axis.metric,
            point(result, kernel, c, FAST_MATH_OPTION)?,
            point(result, kernel, c, "")?,
        )?;
        let sass = match (
            sass_total(result, kernel, c, FAST_MATH_OPTION),
            sass_total(result, kernel, c, ""),
        ) {
            (Some(a), Some(b)) => format!(" (SASS per evaluation {a} vs {b})"),
            _ => String::new(),
        };
        texts.push(format!("{} {}x{sass}", kernel.operation(), factor.text(2)));
        figure = Some(match figure {
            Some(f) if f.median <= factor.median => f,
            _ => factor,
        });
    }
    Some(claims()[5].grade(
        figure?,
        format!("CUDA C twin, {FAST_MATH_OPTION} over default: {}", texts.join("; ")),
        result.device,
    ))
}

/// The claims the experiment grades (rows in this order).
fn claims() -> Vec<Claim> {
    let claim = |id, claim: &str, rule, reads: &str| Claim {
        id,
        source: "Best Practices Guide §5.1.4",
        claim: claim.into(),
        rule,
        reads: reads.into(),
        experiment: "math-functions",
    };
    vec![
        claim(
            "bpg-5.1.4-small-integer-power",
            "For a small integer power (x² or x³), explicit multiplication is almost certainly faster than a general \
             exponentiation routine such as pow()",
            Rule::Direction,
            "cube_mul over pow_cube · CUDA C (a·x·x·x + b against a·powf(x, 3) + b), Gop/s",
        ),
        claim(
            "bpg-5.1.4-exp2-exp10",
            "For base 2 or 10, exp2() and exp10() are much faster than pow() (heavyweight in registers and \
             instructions): similar to exp(), as much as ten times faster than pow()",
            Rule::Direction,
            "exp2 over pow2 and exp10 over pow10 · CUDA C (exp2f, exp10f against powf(2, x), powf(10, x)), Gop/s; the \
             smaller ratio graded (the text's ten times is an upper figure, not graded)",
        ),
        claim(
            "bpg-5.1.4-cbrt",
            "For an exponent of 1/3, cbrt() is significantly faster than pow()",
            Rule::Direction,
            "cbrt over pow_third · CUDA C (cbrtf(x) against powf(x, 1.0f/3)), Gop/s",
        ),
        claim(
            "bpg-5.1.4-sinpi",
            "sinpi(x) in place of sin(π·x) is faster (its argument reduction is simpler) as well as more accurate",
            Rule::Direction,
            "sinpi over sin_pi_x · CUDA C (sinpif(x) against sinf(3.14159265f·x)), Gop/s",
        ),
        claim(
            "bpg-5.1.4-sincos",
            "Where the sine and cosine of the same argument are both needed, the sincos family is faster than \
             separate sin and cos calls",
            Rule::Direction,
            "sincos over sin_cos · CUDA C (sincosf against sinf and cosf of the same x), Gop/s",
        ),
        claim(
            "bpg-5.1.4-use-fast-math",
            "-use_fast_math turns every functionName() call into __functionName(): faster, at lower accuracy (to be \
             used where performance matters more than accuracy)",
            Rule::Direction,
            "the CUDA C twins compiled with -use_fast_math over without · pow_cube, pow10, sin_pi_x and sin_cos, Gop/s; \
             the smallest ratio graded (Rust has no such option)",
        ),
    ]
}

/// Each math-library pair's row, the pairs in the order of [`claims`].
const PAIRS: [&[(ThroughputKernel, ThroughputKernel)]; 5] = [
    &[(CubeMul, PowCube)],
    &[(Exp2, Pow2), (Exp10, Pow10)],
    &[(Cbrt, PowThird)],
    &[(Sinpi, SinPiX)],
    &[(Sincos, SinCos)],
];

impl SectionHooks for MathFunctions {
    /// Evaluations per clock per SM within the FP32 lanes (one add or FMA per evaluation at least) and, for
    /// straight-line loops, within what the issue rates of their SASS allow.
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        throughput_bounds()
    }

    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        vec![
            format!("**Clocks.** {}", clock_statement(result, report)),
            "**What is compared.** Each pair is the call the Best Practices Guide recommends and the one it \
             replaces, in one throughput loop each. The CUDA C twins call CUDA's own functions, so they carry the \
             rows; they are compiled a second time with -use_fast_math. The Rust kernels call the device layer, \
             which has accurate cbrt, sinpi, sin, cos and sincos but no accurate pow: its pow is __powf's \
             algorithm (ex2.approx of y·lg2.approx(x)), its exp2 ex2.approx and its exp10 __exp10f's, so the Rust \
             pow pairs compare fast forms with fast forms. Rust has no -use_fast_math: a Rust kernel gets the SFU \
             forms only by calling them by name."
                .into(),
        ]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut rows = String::new();
        for series in &result.series {
            let Some(p) = series.point(range_key(SMALL)) else {
                continue;
            };
            let extra = |name: &str| p.extra.get(name).map_or("—".into(), |v| format!("{v:.2}"));
            let sass = stored_per_operation(p).map_or("—".into(), |s| format!("{:.1}", s.total));
            let gops = p.median().map_or("—".into(), |g| format!("{g:.1}"));
            let _ = writeln!(
                rows,
                "| {} | {gops} | {} | {sass} |",
                series.label,
                extra(PER_SM_PER_CLOCK)
            );
        }
        (!rows.is_empty()).then(|| {
            format!("| function · implementation | Gop/s | op/clk/SM | SASS instructions per evaluation |\n|---|---:|---:|---:|\n{rows}")
        })
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let mut rows: Vec<LedgerRow> = PAIRS
            .iter()
            .enumerate()
            .filter_map(|(i, pairs)| pairs_row(result, i, pairs))
            .collect();
        rows.extend(fast_math_row(result));
        rows
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::instruction_throughput::ThroughputKernel;

    use super::{FAST_MATH_KERNELS, MathFunctions, PAIRS, claims};
    use crate::experiments::execution_fixtures::{report, result, series};
    use crate::report::{ExperimentResult, Metric, SectionHooks, Series, Verdict};
    use crate::testbed::{FAST_MATH_OPTION, Implementation};

    fn rate(kernel: ThroughputKernel, implementation: Implementation, variant: &str, gops: f64) -> Series {
        series(kernel.entry(), implementation, ("f32", variant), &[(0, gops)], &[])
    }

    fn math(series: Vec<Series>) -> ExperimentResult {
        result("math-functions", Metric::custom("throughput", "Gop/s", true), series)
    }

    fn verdict(result: &ExperimentResult, id: &str) -> Option<Verdict> {
        let report = report(vec![result.clone()]);
        MathFunctions
            .ledger(result, &report)
            .into_iter()
            .find(|r| r.id == id)
            .map(|r| r.verdict)
    }

    /// Every pair's recommended kernel at `fast` Gop/s and the replaced one at `slow`, CUDA C; Rust at 1:1.
    fn pairs_at(fast: f64, slow: f64) -> Vec<Series> {
        let mut all = Vec::new();
        for pairs in PAIRS {
            for &(a, b) in pairs {
                all.push(rate(a, Implementation::CudaC, "", fast));
                all.push(rate(b, Implementation::CudaC, "", slow));
                all.push(rate(a, Implementation::Rust, "", 100.0));
                all.push(rate(b, Implementation::Rust, "", 100.0));
            }
        }
        all
    }

    #[test]
    fn each_pair_is_graded_on_the_cuda_c_twin() {
        let ids: Vec<&str> = claims().iter().map(|c| c.id).collect();
        let faster = math(pairs_at(400.0, 50.0));
        for id in &ids[..5] {
            assert_eq!(verdict(&faster, id), Some(Verdict::Holds), "{id}");
        }
        // The Rust pairs run alike here: they do not decide the rows.
        let alike = math(pairs_at(100.0, 99.0));
        for id in &ids[..5] {
            assert_eq!(verdict(&alike, id), Some(Verdict::Gone), "{id}");
        }
        let reversed = math(pairs_at(50.0, 400.0));
        assert_eq!(verdict(&reversed, "bpg-5.1.4-cbrt"), Some(Verdict::Reversed));
        // No CUDA C twin: no row (the ledger lists the claim as not measured).
        let rust_only: Vec<Series> = pairs_at(400.0, 50.0)
            .into_iter()
            .filter(|s| s.key.implementation == Implementation::Rust)
            .collect();
        assert_eq!(verdict(&math(rust_only), "bpg-5.1.4-sinpi"), None);
    }

    #[test]
    fn exp2_and_exp10_are_graded_on_the_smaller_factor() {
        use ThroughputKernel::*;
        let c = Implementation::CudaC;
        let rows = math(vec![
            rate(Exp2, c, "", 500.0),
            rate(Pow2, c, "", 50.0),
            rate(Exp10, c, "", 100.0),
            rate(Pow10, c, "", 99.0),
        ]);
        assert_eq!(verdict(&rows, "bpg-5.1.4-exp2-exp10"), Some(Verdict::Gone));
        let report = report(vec![rows.clone()]);
        let row = MathFunctions
            .ledger(&rows, &report)
            .into_iter()
            .find(|r| r.id == "bpg-5.1.4-exp2-exp10")
            .unwrap();
        assert!((row.figure.unwrap().median - 100.0 / 99.0).abs() < 1e-9);
        assert!(row.measured.contains("10.00x"), "{}", row.measured);
    }

    #[test]
    fn fast_math_is_graded_on_its_smallest_gain() {
        let c = Implementation::CudaC;
        let with = |gain: f64| -> Vec<Series> {
            FAST_MATH_KERNELS
                .into_iter()
                .enumerate()
                .flat_map(|(i, k)| {
                    let g = if i == 2 { gain } else { 5.0 };
                    [rate(k, c, "", 100.0), rate(k, c, FAST_MATH_OPTION, 100.0 * g)]
                })
                .collect()
        };
        assert_eq!(
            verdict(&math(with(3.0)), "bpg-5.1.4-use-fast-math"),
            Some(Verdict::Holds)
        );
        assert_eq!(
            verdict(&math(with(1.0)), "bpg-5.1.4-use-fast-math"),
            Some(Verdict::Gone)
        );
        assert_eq!(
            verdict(&math(with(0.5)), "bpg-5.1.4-use-fast-math"),
            Some(Verdict::Reversed)
        );
        // Without the fast-math series there is no row.
        let plain: Vec<Series> = with(3.0).into_iter().filter(|s| s.key.variant.is_empty()).collect();
        assert_eq!(verdict(&math(plain), "bpg-5.1.4-use-fast-math"), None);
    }

    #[test]
    fn a_rate_beyond_the_fp32_lanes_is_flagged() {
        use crate::report::DeviceCeilings;
        let ceilings = DeviceCeilings {
            ordinal: 0,
            sm_clock_mhz: 1980.0,
            l2_bytes: 50 << 20,
            ceilings: Vec::new(),
            experiment_clocks: Vec::new(),
        };
        let rows = math(pairs_at(400.0, 50.0));
        let bounds = MathFunctions.bounds(&rows, &rows.series[0]);
        let mut point = rows.series[0].points[0].clone();
        point.set_extra(crate::experiments::throughput_code::FP32_LANE_CEILING, 128.0);
        point.set_extra(crate::experiments::instructions::PER_SM_PER_CLOCK, 120.0);
        assert_eq!(ceilings.violation("math-functions", &bounds, &point), None);
        point.set_extra(crate::experiments::instructions::PER_SM_PER_CLOCK, 140.0);
        let why = ceilings
            .violation("math-functions", &bounds, &point)
            .expect("140 > 128 is impossible");
        assert!(why.contains("140"), "{why}");
    }

    #[test]
    fn the_table_lists_every_series() {
        let rows = math(pairs_at(400.0, 50.0));
        let report = report(vec![rows.clone()]);
        let table = MathFunctions.tables(&rows, &report).unwrap();
        assert_eq!(table.lines().count(), 2 + rows.series.len());
    }
}
