//! The OpenCL Programming Guide §3.1.1.1's arithmetic advice and rates:
//! `native_*` functions against the standard ones and the `-cl-mad-enable`
//! build option ("both can lead to large performance gains"), measured on
//! the OpenCL C twins (`host/opencl_c/instruction_throughput.cl`, built with
//! no option, with `-cl-mad-enable` and with `-cl-fast-relaxed-math`); and the
//! rates it states per clock per multiprocessor for the square root (1, half
//! the reciprocal square root's 2), compare/min/max and type conversions (8,
//! as many as single-precision adds), measured on the Rust kernels
//! (`sqrt_compare_convert.rs`) and their CUDA C and OpenCL C twins, each set
//! against the add or reciprocal square root of the same implementation: the
//! ratios scale from the guide's cc 1.x to today's GPU where absolute rates
//! do not.

use std::fmt::Write;

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::implementation_sass::sass_for;
use super::instructions::{PER_SM_PER_CLOCK, PUBLISHED_CC1, TARGET_LAUNCH_MS, clock_statement, range_key};
use super::throughput_code::{CHECKED_THREADS, SMALL, measure, throughput_bounds};
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{ThroughputRunner, opencl_throughput_runners, throughput_runners};
use crate::report::{
    Axis, Bound, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, Point, Report, Rule, SectionHooks, Series,
    Spread, better_by,
};
use crate::testbed::Implementation;

pub struct OpenClArithmetic;

use ThroughputKernel::{Convert, CubeMul, Exp, ExpFast, F32Add, Fmin, RsqrtApprox, Sin, SinApprox, Sqrt};

/// The build options the OpenCL C twins are measured with (the series variants).
pub const BUILD_OPTIONS: [&str; 3] = ["", "-cl-mad-enable", "-cl-fast-relaxed-math"];
/// The OpenCL C twins measured with each option: the rates' kernels, the
/// standard and native sine and exponential (the Rust `sin_approx` and
/// `exp_fast` entries hold `native_sin` and `native_exp`), and `a·x·x·x + b`.
const OPENCL_KERNELS: [ThroughputKernel; 10] = [
    F32Add,
    RsqrtApprox,
    Sqrt,
    Fmin,
    Convert,
    Sin,
    SinApprox,
    Exp,
    ExpFast,
    CubeMul,
];

const COUNTING: &str = "operations = threads × 8 chains × rounds per launch, one operation per chain per round (two \
    for the conversion kernel: to i32 and back); Gop/s = 1e9 operations per second; op/clk/SM = operations per second \
    / SMs / the SM clock the device reports as its maximum";

impl Experiment for OpenClArithmetic {
    fn name(&self) -> &'static str {
        "opencl-arithmetic"
    }
    fn title(&self) -> &'static str {
        "OpenCL arithmetic: native functions, build options, square root, compare and conversion rates"
    }
    fn source(&self) -> &'static str {
        "OpenCL Programming Guide 2.3, §3.1.1.1 (Arithmetic Instructions)"
    }
    fn points(&self) -> u64 {
        (ThroughputKernel::SQRT_COMPARE_CONVERT.len() + OPENCL_KERNELS.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis =
            Axis::lines("arguments (0 = small)", Metric::custom("throughput", "Gop/s", true)).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, COUNTING);
        let (mut runners, waived) = throughput_runners(ctx.device)?;
        result.waive(waived);
        let implementations: Vec<Implementation> = runners.iter().map(|r| r.implementation()).collect();
        let sass = sass_for(&mut result, &implementations, ctx.device.info().architecture());
        let mut most_blocks = 1;
        if let Some(rust) = runners.iter().find(|r| r.implementation() == Implementation::Rust) {
            for kernel in ThroughputKernel::SQRT_COMPARE_CONVERT.into_iter().chain(OPENCL_KERNELS) {
                most_blocks = most_blocks.max(rust.wave_blocks(kernel)?);
            }
        }
        for runner in &mut runners {
            runner.allocate(most_blocks * THROUGHPUT_BLOCK_THREADS)?;
        }
        for (done, kernel) in ThroughputKernel::SQRT_COMPARE_CONVERT.into_iter().enumerate() {
            if ctx.stop_before(done, self.points() as usize) {
                return Ok(result);
            }
            for runner in &mut runners {
                let implementation = runner.implementation();
                let blocks = runner.wave_blocks(kernel)?;
                let module_sass = sass
                    .iter()
                    .find(|s| s.implementation == implementation)
                    .and_then(|s| s.module().ok());
                let mut series = Series::new(
                    ctx.key(kernel.entry(), implementation, "f32"),
                    format!("{} · {}", kernel.operation(), implementation.label()),
                );
                series
                    .points
                    .extend(measure(ctx, runner.as_mut(), (kernel, blocks), module_sass)?);
                result.series.push(series);
            }
            ctx.progress.inc(1);
        }
        let (opencl, waived) = opencl_throughput_runners(ctx.device, &BUILD_OPTIONS);
        result.waive(waived);
        opencl_series(ctx, opencl, &mut result)?;
        result.setup.push(format!(
            "{THROUGHPUT_CHAINS} independent chains per thread (work-item), {THROUGHPUT_BLOCK_THREADS} threads per \
             block (work-group), one full wave per launch (the Rust kernels' for OpenCL), rounds calibrated to about \
             {TARGET_LAUNCH_MS} ms per launch; each point's first {CHECKED_THREADS} threads' chains checked against \
             the CPU reference"
        ));
        Ok(result)
    }
}

/// The OpenCL C twins with each of [`BUILD_OPTIONS`] that built (a runner
/// each): one series per kernel and option (variant: the option).
fn opencl_series(
    ctx: &RunContext<'_>,
    mut runners: Vec<Box<dyn ThroughputRunner + '_>>,
    result: &mut ExperimentResult,
) -> Result<()> {
    for runner in &mut runners {
        let groups: Vec<u32> = OPENCL_KERNELS
            .iter()
            .map(|&k| runner.wave_blocks(k))
            .collect::<Result<_>>()?;
        runner.allocate(groups.iter().copied().max().unwrap_or(1) * THROUGHPUT_BLOCK_THREADS)?;
        let option = runner.variant();
        for (&kernel, &groups) in OPENCL_KERNELS.iter().zip(&groups) {
            ctx.progress
                .set_message(format!("{} · OpenCL C {option}", kernel.entry()));
            let mut series = Series::new(
                ctx.key(kernel.entry(), runner.implementation(), "f32").variant(option),
                format!("{} · OpenCL C {option}", opencl_operation(kernel)),
            );
            series
                .points
                .extend(measure(ctx, runner.as_mut(), (kernel, groups), None)?);
            result.series.push(series);
        }
    }
    if !runners.is_empty() {
        ctx.progress.inc(OPENCL_KERNELS.len() as u64);
    }
    Ok(())
}

/// What the OpenCL C twin of `kernel` computes, as the report names it.
fn opencl_operation(kernel: ThroughputKernel) -> &'static str {
    match kernel {
        SinApprox => "native_sin(x) + b",
        ExpFast => "native_exp(x) + b",
        Sin => "sin(x) + b",
        Exp => "exp(x) + b",
        RsqrtApprox => "native_rsqrt(x)",
        CubeMul => "a·(x·x·x) + b, written apart",
        other => other.operation(),
    }
}

/// The point of `kernel` by `implementation` (`variant`: "" or an OpenCL build option).
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

/// How many times `a`'s rate `b`'s is, each (kernel, implementation, variant).
fn ratio(
    result: &ExperimentResult,
    a: (ThroughputKernel, Implementation, &str),
    b: (ThroughputKernel, Implementation, &str),
) -> Option<Spread> {
    better_by(
        &result.axis.metric,
        point(result, a.0, a.1, a.2)?,
        point(result, b.0, b.1, b.2)?,
    )
}

/// "; CUDA C 1.9x; OpenCL C 2.1x" for the twins' ratios of `a` over `b`, where they ran.
fn twin_ratios(result: &ExperimentResult, a: ThroughputKernel, b: ThroughputKernel) -> String {
    [Implementation::CudaC, Implementation::OpenClC]
        .into_iter()
        .filter_map(|i| {
            Some(format!(
                "; {} {}x",
                i.label(),
                ratio(result, (a, i, ""), (b, i, ""))?.text(2)
            ))
        })
        .collect()
}

/// The claims the experiment grades (rows in this order).
fn claims() -> Vec<Claim> {
    let claim = |id, claim: &str, rule, reads: &str| Claim {
        id,
        source: "OpenCL Programming Guide §3.1.1.1",
        claim: claim.into(),
        rule,
        reads: reads.into(),
        experiment: "opencl-arithmetic",
    };
    let same_as_add = Rule::NoExtraCost {
        holds_within: 1.25,
        weaker_within: 2.5,
    };
    vec![
        claim(
            "ocl-3.1.1.1-native-functions",
            "native_* functions can lead to large performance gains (native_sin, native_cos, native_exp: 1 per clock \
             per SM; sin, cos and exp much more expensive)",
            Rule::Direction,
            "native_sin over sin and native_exp over exp · OpenCL C (no build option), Gop/s; the smaller ratio graded",
        ),
        claim(
            "ocl-3.1.1.1-mad-enable",
            "The -cl-mad-enable build option can lead to large performance gains",
            Rule::Direction,
            "a·(x·x·x) + b · OpenCL C, built with -cl-mad-enable over without, Gop/s",
        ),
        claim(
            "ocl-3.1.1.1-sqrt",
            "The square root is a reciprocal square root followed by a reciprocal: 1 per clock per SM, half the \
             reciprocal square root's 2",
            Rule::Factor { claimed: 2.0 },
            "rsqrt_approx over sqrt · Rust (rsqrt.approx.f32 against sqrt.rn.f32 plus an add), Gop/s",
        ),
        claim(
            "ocl-3.1.1.1-compare",
            "Compare, min and max run at 8 per clock per SM, as many as single-precision adds",
            same_as_add,
            "f32_add over fmin · Rust (add.f32 against min.f32), Gop/s: the cost of a min over an add",
        ),
        claim(
            "ocl-3.1.1.1-conversion",
            "Type conversions run at 8 per clock per SM, as many as single-precision adds",
            same_as_add,
            "f32_add over convert · Rust (add.f32 against one of cvt.rzi.s32.f32 and cvt.rn.f32.s32), Gop/s",
        ),
    ]
}

/// OpenCL: the native functions over the standard ones, the smaller ratio.
fn native_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let cl = Implementation::OpenClC;
    let sine = ratio(result, (SinApprox, cl, ""), (Sin, cl, ""))?;
    let exp = ratio(result, (ExpFast, cl, ""), (Exp, cl, ""))?;
    let relaxed = ratio(result, (Sin, cl, "-cl-fast-relaxed-math"), (Sin, cl, ""))
        .map(|r| format!("; sin built with -cl-fast-relaxed-math {}x sin without", r.text(2)))
        .unwrap_or_default();
    let figure = if sine.median <= exp.median { sine } else { exp };
    Some(claims()[0].grade(
        figure,
        format!(
            "OpenCL C: native_sin {}x sin, native_exp {}x exp{relaxed}",
            sine.text(2),
            exp.text(2)
        ),
        result.device,
    ))
}

/// OpenCL: `-cl-mad-enable` against no option on the multiply-add.
fn mad_enable_row(result: &ExperimentResult) -> Option<LedgerRow> {
    let cl = Implementation::OpenClC;
    let gain = ratio(result, (CubeMul, cl, "-cl-mad-enable"), (CubeMul, cl, ""))?;
    let relaxed = ratio(result, (CubeMul, cl, "-cl-fast-relaxed-math"), (CubeMul, cl, ""))
        .map(|r| format!("; with -cl-fast-relaxed-math {}x", r.text(2)))
        .unwrap_or_default();
    Some(claims()[1].grade(
        gain,
        format!(
            "OpenCL C a·(x·x·x) + b: -cl-mad-enable {}x no option{relaxed}",
            gain.text(2)
        ),
        result.device,
    ))
}

/// Rust `a` over `b` (claim `claim`), with the twins' ratios and both rates per clock beside the guide's.
fn rate_row(result: &ExperimentResult, claim: usize, a: ThroughputKernel, b: ThroughputKernel) -> Option<LedgerRow> {
    let rust = Implementation::Rust;
    let figure = ratio(result, (a, rust, ""), (b, rust, ""))?;
    let per_clock = |k| {
        let p = point(result, k, rust, "")?;
        let then = p
            .extra
            .get(PUBLISHED_CC1)
            .map(|t| format!(" (cc 1.x: {t:.0})"))
            .unwrap_or_default();
        Some(format!(
            "{} {:.1} op/clk/SM{then}",
            k.entry(),
            p.extra.get(PER_SM_PER_CLOCK)?
        ))
    };
    let rates: Vec<String> = [a, b].into_iter().filter_map(per_clock).collect();
    Some(claims()[claim].grade(
        figure,
        format!(
            "Rust: {}x; {}{}",
            figure.text(2),
            rates.join(", "),
            twin_ratios(result, a, b)
        ),
        result.device,
    ))
}

impl SectionHooks for OpenClArithmetic {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        throughput_bounds()
    }

    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        vec![
            format!("**Clocks.** {}", clock_statement(result, report)),
            "**Scaling.** The guide's rates are per clock per multiprocessor on compute capability 1.x, where an SM \
             issued 8 single-precision adds per clock; each rate row sets the operation against the add (or the \
             square root against the reciprocal square root) of the same implementation on this GPU, which is what \
             the guide's figures say relative to each other. The conversion kernel writes C's `(int)x`: Rust's `as \
             i32` saturates (two compares and three selects around every conversion), so the Rust kernel uses \
             `to_int_unchecked`."
                .into(),
        ]
    }

    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut rows = String::new();
        for series in &result.series {
            let Some(p) = series.point(range_key(SMALL)) else {
                continue;
            };
            let figure = |name: &str| p.extra.get(name).map_or("—".into(), |v| format!("{v:.2}"));
            let gops = p.median().map_or("—".into(), |g| format!("{g:.1}"));
            let _ = writeln!(
                rows,
                "| {} | {gops} | {} | {} |",
                series.label,
                figure(PER_SM_PER_CLOCK),
                figure(PUBLISHED_CC1)
            );
        }
        (!rows.is_empty()).then(|| {
            format!(
                "| operation · implementation (build option) | Gop/s | op/clk/SM | OpenCL guide, cc 1.x op/clk/SM |\n\
                 |---|---:|---:|---:|\n{rows}"
            )
        })
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        [
            native_row(result),
            mad_enable_row(result),
            rate_row(result, 2, RsqrtApprox, Sqrt),
            rate_row(result, 3, F32Add, Fmin),
            rate_row(result, 4, F32Add, Convert),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::instruction_throughput::ThroughputKernel::{self, *};

    use super::OpenClArithmetic;
    use crate::experiments::execution_fixtures::{report, result, series};
    use crate::report::{ExperimentResult, Metric, SectionHooks, Series, Verdict};
    use crate::testbed::Implementation;

    fn rate(kernel: ThroughputKernel, implementation: Implementation, variant: &str, gops: f64) -> Series {
        series(kernel.entry(), implementation, ("f32", variant), &[(0, gops)], &[])
    }

    fn arithmetic(series: Vec<Series>) -> ExperimentResult {
        result("opencl-arithmetic", Metric::custom("throughput", "Gop/s", true), series)
    }

    fn verdict(result: &ExperimentResult, id: &str) -> Option<Verdict> {
        let report = report(vec![result.clone()]);
        OpenClArithmetic
            .ledger(result, &report)
            .into_iter()
            .find(|r| r.id == id)
            .map(|r| r.verdict)
    }

    #[test]
    fn the_rates_are_graded_against_the_add_and_rsqrt_of_the_rust_kernels() {
        let r = Implementation::Rust;
        let at = |sqrt: f64, fmin: f64, convert: f64| {
            arithmetic(vec![
                rate(F32Add, r, "", 1000.0),
                rate(RsqrtApprox, r, "", 200.0),
                rate(Sqrt, r, "", sqrt),
                rate(Fmin, r, "", fmin),
                rate(Convert, r, "", convert),
                // The twins are shown, not graded.
                rate(F32Add, Implementation::CudaC, "", 1000.0),
                rate(Fmin, Implementation::CudaC, "", 10.0),
            ])
        };
        let guide = at(100.0, 1000.0, 1000.0);
        assert_eq!(verdict(&guide, "ocl-3.1.1.1-sqrt"), Some(Verdict::Holds));
        assert_eq!(verdict(&guide, "ocl-3.1.1.1-compare"), Some(Verdict::Holds));
        assert_eq!(verdict(&guide, "ocl-3.1.1.1-conversion"), Some(Verdict::Holds));
        let now = at(200.0, 500.0, 125.0);
        assert_eq!(
            verdict(&now, "ocl-3.1.1.1-sqrt"),
            Some(Verdict::Gone),
            "sqrt as fast as rsqrt"
        );
        assert_eq!(
            verdict(&now, "ocl-3.1.1.1-compare"),
            Some(Verdict::Weaker),
            "a min costs twice an add"
        );
        assert_eq!(
            verdict(&now, "ocl-3.1.1.1-conversion"),
            Some(Verdict::Gone),
            "a conversion costs 8 adds"
        );
        let report = report(vec![now.clone()]);
        let row = OpenClArithmetic
            .ledger(&now, &report)
            .into_iter()
            .find(|r| r.id == "ocl-3.1.1.1-compare")
            .unwrap();
        assert!(row.measured.contains("CUDA C 100.00x"), "{}", row.measured);
    }

    #[test]
    fn native_functions_and_mad_enable_are_graded_on_opencl_c() {
        let cl = Implementation::OpenClC;
        let built = |native_exp: f64, mad: f64| {
            arithmetic(vec![
                rate(Sin, cl, "", 100.0),
                rate(SinApprox, cl, "", 800.0),
                rate(Exp, cl, "", 400.0),
                rate(ExpFast, cl, "", native_exp),
                rate(CubeMul, cl, "", 500.0),
                rate(CubeMul, cl, "-cl-mad-enable", mad),
            ])
        };
        let faster = built(800.0, 700.0);
        assert_eq!(verdict(&faster, "ocl-3.1.1.1-native-functions"), Some(Verdict::Holds));
        assert_eq!(verdict(&faster, "ocl-3.1.1.1-mad-enable"), Some(Verdict::Holds));
        let same = built(401.0, 500.0);
        assert_eq!(
            verdict(&same, "ocl-3.1.1.1-native-functions"),
            Some(Verdict::Gone),
            "the smaller gain"
        );
        assert_eq!(verdict(&same, "ocl-3.1.1.1-mad-enable"), Some(Verdict::Gone));
        // Without OpenCL there are no OpenCL rows.
        let rust_only = arithmetic(vec![rate(Sin, Implementation::Rust, "", 1.0)]);
        assert_eq!(verdict(&rust_only, "ocl-3.1.1.1-native-functions"), None);
    }
}
