//! The accuracy half of Best Practices Guide §5.1.4 (and the OpenCL guide's
//! table of `native_*` errors): every fast approximation the `instructions`
//! experiment times, and the device layer's accurate sine and exp, evaluated
//! by `math_function_values` over a fixed sweep of small and of large
//! arguments and compared with an `f64` CPU reference: the error in ulp (max
//! and mean), the largest absolute error, and how many inputs lie past the
//! documented bound (the PTX ISA's for the instructions, the exhaustive
//! bounds of `device::accurate_math` for the Rust sine and tighter exp,
//! CUDA's 2 ulp for the Rust `exp`, which is `expf`'s algorithm, and
//! NVIDIA's 2 ulp for the CUDA C twin's `sinf` and `expf`).
//!
//! Its report also sets the device layer's sine and exponentials beside
//! CUDA's `sinf` and `expf`: Gop/s (from the `instructions` experiment of the
//! same run, where it ran) and max error per argument range, each as a
//! ratio to CUDA's; and for `exp` how many inputs give other bits than
//! `expf` (none where the hardware runs the same instructions).

use std::fmt::Write;

use kernels_gpu::instruction_throughput::ThroughputKernel;
use kernels_gpu::math_accuracy::MathFunction;

use super::instructions::{range_at, range_key, rate_point};
use super::{Experiment, RunContext};
use crate::device::{cbrt, cos, exp_accurate, sin, sinpi};
use crate::error::Result;
use crate::launchers::{MathAccuracyRunner, math_accuracy_runners};
use crate::reference::{
    ArgumentRange, ErrorBound, cuda_library_bound, documented_bound, error_stats, input_sweep, math_function_exact,
};
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, PlotKind, Point, Report, Rule, Scale, SectionHooks, Series,
    Spread, Work,
};
use crate::testbed::Implementation;

pub struct Accuracy;

/// Inputs per function and argument range.
pub const SWEEP_POINTS: usize = 1 << 18;

/// Extra figures of each point, by name.
pub const MEAN_ULP: &str = "mean ulp";
pub const MAX_ABSOLUTE: &str = "max absolute error";
pub const PAST_BOUND: &str = "inputs past the documented bound";
/// On the Rust `exp`'s points: inputs whose result has other bits than CUDA's `expf`.
pub const UNLIKE_EXPF: &str = "inputs unlike CUDA's expf";

/// The device layer's name of `function` (the series' kernel).
pub fn function_name(function: MathFunction) -> &'static str {
    match function {
        MathFunction::SinApprox => "sin_approx",
        MathFunction::CosApprox => "cos_approx",
        MathFunction::Ex2Approx => "ex2_approx",
        MathFunction::Lg2Approx => "lg2_approx",
        MathFunction::RcpApprox => "rcp_approx",
        MathFunction::RsqrtApprox => "rsqrt_approx",
        MathFunction::ExpFast => "exp_fast",
        MathFunction::Sin => "sin",
        MathFunction::ExpAccurate => "exp_accurate",
        MathFunction::Exp => "exp",
        MathFunction::Exp2 => "exp2",
        MathFunction::Exp10 => "exp10",
        MathFunction::Cbrt => "cbrt",
        MathFunction::Cos => "cos",
        MathFunction::Sinpi => "sinpi",
    }
}

/// What `function` is, as the report names it (CUDA C's name in parentheses).
pub fn function_label(function: MathFunction, implementation: Implementation) -> &'static str {
    let cuda = implementation == Implementation::CudaC;
    match function {
        MathFunction::SinApprox => "sin.approx.f32 (__sinf)",
        MathFunction::CosApprox => "cos.approx.f32 (__cosf)",
        MathFunction::Ex2Approx => "ex2.approx.f32 (2^x)",
        MathFunction::Lg2Approx => "lg2.approx.f32 (__log2f)",
        MathFunction::RcpApprox => "rcp.approx.f32 (1/x)",
        MathFunction::RsqrtApprox => "rsqrt.approx.f32 (rsqrtf)",
        MathFunction::ExpFast => "ex2.approx.f32(x·log2 e) (__expf)",
        MathFunction::Sin if cuda => "sinf (CUDA's library)",
        MathFunction::ExpAccurate | MathFunction::Exp if cuda => "expf (CUDA's library)",
        MathFunction::Sin => "sin (device layer)",
        MathFunction::ExpAccurate => "exp_accurate (device layer, tighter)",
        MathFunction::Exp => "exp (device layer)",
        MathFunction::Exp2 if cuda => "exp2f (CUDA's library)",
        MathFunction::Exp10 if cuda => "exp10f (CUDA's library)",
        MathFunction::Cbrt if cuda => "cbrtf (CUDA's library)",
        MathFunction::Cos if cuda => "cosf (CUDA's library)",
        MathFunction::Sinpi if cuda => "sinpif (CUDA's library)",
        MathFunction::Exp2 => "ex2.approx.f32 (exp2; CUDA's exp2f is built on it)",
        MathFunction::Exp10 => "exp10_fast (device layer, __exp10f's algorithm)",
        MathFunction::Cbrt => "cbrt (device layer)",
        MathFunction::Cos => "cos (device layer)",
        MathFunction::Sinpi => "sinpi (device layer)",
    }
}

/// The bound an implementation's results are held to.
pub fn bound_for(function: MathFunction, range: ArgumentRange, implementation: Implementation) -> ErrorBound {
    match implementation {
        Implementation::CudaC => cuda_library_bound(function, range),
        _ => documented_bound(function, range),
    }
}

/// A bound as a table shows it.
pub fn bound_text(bound: ErrorBound) -> String {
    let power = |x: f64| format!("2^{:.2}", x.log2()).replace(".00", "");
    match bound {
        ErrorBound::Ulp(u) => format!("{u} ulp"),
        ErrorBound::Absolute(a) => format!("absolute {}", power(a)),
        ErrorBound::Relative(r) => format!("relative {}", power(r)),
        ErrorBound::AbsoluteOrRelative { absolute, relative } => {
            format!("absolute {} or relative {}", power(absolute), power(relative))
        }
        ErrorBound::UlpGrowing { constant, per_unit } => format!("{constant} + {per_unit}·|x| ulp"),
        ErrorBound::Unbounded => "none documented".into(),
    }
}

/// The CPU's value of the Rust FMA-only functions (the same code the GPU runs), if `function` is one:
/// not `exp`, whose `ex2.approx` the emulator rounds correctly where the GPU does not.
fn host_value(function: MathFunction) -> Option<fn(f32) -> f32> {
    match function {
        MathFunction::Sin => Some(sin),
        MathFunction::ExpAccurate => Some(exp_accurate),
        MathFunction::Cbrt => Some(cbrt),
        MathFunction::Cos => Some(cos),
        MathFunction::Sinpi => Some(sinpi),
        _ => None,
    }
}

/// The check of one sweep's results: the Rust accurate functions must
/// compute on the GPU exactly what they compute on the CPU, and every
/// result must be finite where the exact value is.
fn sweep_failure(
    function: MathFunction,
    implementation: Implementation,
    inputs: &[f32],
    got: &[f32],
) -> Option<String> {
    let host = host_value(function).filter(|_| implementation == Implementation::Rust);
    inputs.iter().zip(got).find_map(|(&x, &y)| {
        if let Some(host) = host
            && host(x).to_bits() != y.to_bits()
        {
            return Some(format!(
                "at {x:e} the GPU gives {y:e}, the same code on the CPU {:e}",
                host(x)
            ));
        }
        (!y.is_finite() && math_function_exact(function, x as f64).is_finite())
            .then(|| format!("at {x:e} the GPU gives {y}"))
    })
}

/// How many inputs the Rust and the CUDA C twin's results differ at, in
/// bits (both NaN counts as alike), where both ran.
fn unlike_cuda(outputs: &[(usize, Implementation, Vec<f32>)]) -> Option<usize> {
    let of = |implementation| outputs.iter().find(|o| o.1 == implementation).map(|o| &o.2);
    let (rust, cuda) = (of(Implementation::Rust)?, of(Implementation::CudaC)?);
    Some(
        rust.iter()
            .zip(cuda)
            .filter(|(a, b)| a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan()))
            .count(),
    )
}

/// One row of the device layer's table: what, the accuracy series and the
/// throughput kernel behind it, and its implementation.
struct DeviceMathRow {
    what: &'static str,
    function: MathFunction,
    kernel: ThroughputKernel,
    implementation: Implementation,
}

/// The device layer's sine and exponentials beside CUDA's `sinf` and `expf`,
/// CUDA's first in each family (the ratios' denominator).
fn device_math_rows() -> [Vec<DeviceMathRow>; 2] {
    let row = |what, function, kernel, implementation| DeviceMathRow {
        what,
        function,
        kernel,
        implementation,
    };
    use Implementation::{CudaC, Rust};
    [
        vec![
            row("CUDA C `sinf`", MathFunction::Sin, ThroughputKernel::Sin, CudaC),
            row(
                "Rust `sin` (the default)",
                MathFunction::Sin,
                ThroughputKernel::Sin,
                Rust,
            ),
        ],
        vec![
            row("CUDA C `expf`", MathFunction::Exp, ThroughputKernel::Exp, CudaC),
            row(
                "Rust `exp` (the default)",
                MathFunction::Exp,
                ThroughputKernel::Exp,
                Rust,
            ),
            row(
                "Rust `exp_accurate` (tighter)",
                MathFunction::ExpAccurate,
                ThroughputKernel::ExpAccurate,
                Rust,
            ),
        ],
    ]
}

/// The device layer against CUDA's library, per argument range: Gop/s from
/// the `instructions` experiment of the same device (where it ran), max
/// error from this one, and both as ratios to CUDA's.
fn device_math_table(result: &ExperimentResult, report: &Report) -> String {
    let instructions = report
        .experiments
        .iter()
        .find(|e| e.name == "instructions" && e.device == result.device);
    let gops = |row: &DeviceMathRow, range: ArgumentRange| {
        instructions.and_then(|i| rate_point(i, row.kernel, row.implementation, range)?.median())
    };
    let max_ulp = |row: &DeviceMathRow, range: ArgumentRange| {
        result
            .series
            .iter()
            .find(|s| s.key.kernel == function_name(row.function) && s.key.implementation == row.implementation)?
            .point(range_key(range))?
            .median()
    };
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.3}", a / b),
        _ => "—".into(),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "**The device layer against CUDA's library** (Gop/s: the `instructions` experiment's chains          `v ← f(v) + b`; max error: this experiment's sweeps; ratios to CUDA's in the same run)
"
    );
    let _ = writeln!(
        out,
        "| function | arguments | Gop/s | / CUDA's | max error (ulp) | / CUDA's | bound (ulp) | inputs unlike `expf` |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|---:|");
    for family in device_math_rows() {
        for range in ArgumentRange::ALL {
            let cuda = &family[0];
            for row in &family {
                let rate = gops(row, range);
                let ulp = max_ulp(row, range);
                let unlike = result
                    .series
                    .iter()
                    .find(|s| s.key.kernel == function_name(row.function) && s.key.implementation == row.implementation)
                    .and_then(|s| s.point(range_key(range)))
                    .and_then(|p| p.extra.get(UNLIKE_EXPF).copied());
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} | {} |",
                    row.what,
                    range.label(),
                    rate.map_or("—".into(), |g| format!("{g:.0}")),
                    ratio(rate, gops(cuda, range)),
                    ulp.map_or("—".into(), |u| format!("{u:.3}")),
                    ratio(ulp, max_ulp(cuda, range)),
                    bound_text(bound_for(row.function, range, row.implementation)),
                    unlike.map_or("—".into(), |n| format!("{n:.0}")),
                );
            }
        }
    }
    out
}

impl Experiment for Accuracy {
    fn name(&self) -> &'static str {
        "accuracy"
    }
    fn title(&self) -> &'static str {
        "Fast and accurate math: measured error"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §5.1.4 (and §7.2); OpenCL Programming Guide 2.3, §3.1.1.1 and Appendix B \
         (Tables C-1, standard single-precision functions, and C-3, native functions: the document labels \
         Appendix B's tables C-1 to C-3)"
    }
    fn points(&self) -> u64 {
        (MathFunction::ALL.len() * ArgumentRange::ALL.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines(
            "arguments (0 = small, 1 = large)",
            Metric::custom("max error", "ulp", false),
        )
        .y_scale(Scale::Log10)
        .plot(PlotKind::None);
        let mut result = ctx.result(self, axis, "");
        let (mut runners, waived) = math_accuracy_runners(ctx.device)?;
        result.waive(waived);
        let implementations: Vec<Implementation> = runners.iter().flat_map(|r| r.implementations().to_vec()).collect();
        for runner in &mut runners {
            runner.allocate(SWEEP_POINTS)?;
        }
        let total = MathFunction::ALL.len() * ArgumentRange::ALL.len();
        let mut done = 0;
        for function in MathFunction::ALL {
            let first = result.series.len();
            for &implementation in &implementations {
                let series = Series::new(
                    ctx.key(function_name(function), implementation, "f32"),
                    format!(
                        "{} · {}",
                        function_label(function, implementation),
                        implementation.label()
                    ),
                );
                result.series.push(series);
            }
            for range in ArgumentRange::ALL {
                if ctx.stop_before(done, total) {
                    return Ok(result);
                }
                done += 1;
                ctx.progress
                    .set_message(format!("{} ({})", function_name(function), range.label()));
                sweep((function, range), &mut runners, &mut result.series[first..])?;
                ctx.progress.inc(1);
            }
        }
        result.setup.push(format!(
            "{SWEEP_POINTS} inputs per function and range (reference::input_sweep: small = where the \
             approximations are documented, large = beyond), one thread per input; errors against the f64 value \
             rounded nowhere (ulp of the exact value)"
        ));
        Ok(result)
    }
}

/// One function over one range's sweep by every runner's implementations, a
/// point each into `series` (the function's, in the runners' order); on the
/// Rust `exp`'s point, how many inputs give other bits than CUDA's `expf`.
fn sweep(
    (function, range): (MathFunction, ArgumentRange),
    runners: &mut [Box<dyn MathAccuracyRunner + '_>],
    series: &mut [Series],
) -> Result<()> {
    let inputs = input_sweep(function, range, SWEEP_POINTS);
    let mut outputs = Vec::new();
    for runner in runners {
        runner.load_inputs(&inputs)?;
        for implementation in runner.implementations().to_vec() {
            let index = outputs.len();
            let got = runner.values(implementation, function, SWEEP_POINTS)?;
            let failure = sweep_failure(function, implementation, &inputs, &got);
            outputs.push((index, implementation, got.clone()));
            if let Some(point) = error_point((function, range, implementation), &inputs, &got, failure) {
                series[index].points.push(point);
            }
        }
    }
    if function == MathFunction::Exp
        && let Some(unlike) = unlike_cuda(&outputs)
        && let Some((index, _, _)) = outputs.iter().find(|o| o.1 == Implementation::Rust)
        && let Some(point) = series[*index].points.last_mut()
        && point.at == range_key(range)
    {
        point.set_extra(UNLIKE_EXPF, unlike as f64);
    }
    Ok(())
}

/// One implementation's errors over one sweep: the largest in ulp (the
/// point's figure), the mean, the largest absolute and the inputs past the
/// documented bound; `None` where no error could be taken.
fn error_point(
    (function, range, implementation): (MathFunction, ArgumentRange, Implementation),
    inputs: &[f32],
    got: &[f32],
    failure: Option<String>,
) -> Option<Point> {
    let stats = error_stats(inputs, got, |x| math_function_exact(function, x))?;
    let bound = bound_for(function, range, implementation);
    let past = inputs
        .iter()
        .zip(got)
        .filter(|&(&x, &y)| !bound.allows(x, y, math_function_exact(function, x as f64)))
        .count();
    let failure =
        failure.or_else(|| (!stats.max_ulp.is_finite()).then(|| "an error of infinitely many ulp".to_string()));
    let work = Work::bytes(SWEEP_POINTS as u64, 8 * SWEEP_POINTS as u64);
    let mut point = Point::measured(range_key(range), &[stats.max_ulp], work, failure)?;
    point.set_extra(MEAN_ULP, stats.mean_ulp);
    point.set_extra(MAX_ABSOLUTE, stats.max_abs);
    point.set_extra(PAST_BOUND, past as f64);
    Some(point)
}

/// The OpenCL guide's Table C-1 (Appendix B.1.1) bounds of the functions measured here, in ulp
/// from the correctly rounded result: `sin`, `exp` and `rsqrt` 2 (full range); with the series
/// (function, implementation) that holds each: NVIDIA's own `sinf` and `expf` (the CUDA C twin)
/// and `rsqrt.approx.f32` (what `rsqrtf` is).
const TABLE_C1: [(MathFunction, Implementation, f64); 3] = [
    (MathFunction::Sin, Implementation::CudaC, 2.0),
    (MathFunction::Exp, Implementation::CudaC, 2.0),
    (MathFunction::RsqrtApprox, Implementation::Rust, 2.0),
];

/// The same table's bounds of the functions `math-functions` recommends, with the series that holds
/// each (CUDA's own, the CUDA C twin): `exp2`, `exp10` and `cos` (so `sincos`) 2 ulp, `cbrt` 1 ulp.
const TABLE_C1_SPECIALIZED: [(MathFunction, Implementation, f64); 4] = [
    (MathFunction::Exp2, Implementation::CudaC, 2.0),
    (MathFunction::Exp10, Implementation::CudaC, 2.0),
    (MathFunction::Cbrt, Implementation::CudaC, 1.0),
    (MathFunction::Cos, Implementation::CudaC, 2.0),
];

/// The claims the experiment grades.
fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "ocl-b.1.1-max-ulp",
            source: "OpenCL Programming Guide Appendix B.1.1 (Table C-1)",
            claim:
                "The library's single-precision sin, exp and rsqrt are within 2 ulp of the correctly rounded result \
                over their full range"
                    .into(),
            rule: Rule::NoExtraCost {
                holds_within: 1.0,
                weaker_within: 2.0,
            },
            reads: "sin and exp · CUDA C (sinf, expf) and rsqrt_approx · Rust, small and large \
                arguments: max error in ulp of the exact value over the table's 2 ulp plus the half ulp of rounding \
                (2.5); the worst of the six graded"
                .into(),
            experiment: "accuracy",
        },
        Claim {
            id: "ocl-b.1.1-specialized-max-ulp",
            source: "OpenCL Programming Guide Appendix B.1.1 (Table C-1)",
            claim: "The specialized functions the Best Practices Guide recommends are accurate: exp2, exp10, cos and \
                    sincos within 2 ulp, cbrt within 1 ulp of the correctly rounded result over their full range"
                .into(),
            rule: Rule::NoExtraCost {
                holds_within: 1.0,
                weaker_within: 2.0,
            },
            reads: "exp2, exp10, cbrt and cos · CUDA C (exp2f, exp10f, cbrtf, cosf), small and large arguments: max \
                    error in ulp of the exact value over the table's bound plus the half ulp of rounding; the worst of \
                    the eight graded (the device layer's cbrt, cos and sinpi shown in the table)"
                .into(),
            experiment: "accuracy",
        },
    ]
}

/// The measured max ulp of every point `table` bounds, as (name, range, ulp, bound).
fn table_c1_errors(
    result: &ExperimentResult,
    table: &[(MathFunction, Implementation, f64)],
) -> Vec<(&'static str, ArgumentRange, f64, f64)> {
    table
        .iter()
        .copied()
        .flat_map(|(function, implementation, bound)| {
            let series = result.series_of(function_name(function), implementation);
            ArgumentRange::ALL.into_iter().filter_map(move |range| {
                let point = series?.point(range_key(range))?;
                let ulp = point.median().filter(|_| point.status.is_ok())?;
                Some((function_label(function, implementation), range, ulp, bound + 0.5))
            })
        })
        .collect()
}

/// The row of claim `claim`: the worst of `table`'s points as a share of its bound (plus half an ulp).
fn table_c1_row(
    result: &ExperimentResult,
    claim: usize,
    table: &[(MathFunction, Implementation, f64)],
) -> Option<LedgerRow> {
    let errors = table_c1_errors(result, table);
    let worst = errors.iter().map(|e| e.2 / e.3).reduce(f64::max)?;
    let measured = errors
        .iter()
        .map(|(name, range, ulp, bound)| format!("{name} {ulp:.2} ulp ({}; allowed {bound})", range.label()))
        .collect::<Vec<_>>()
        .join(", ");
    Some(claims()[claim].grade(
        Spread::exact(worst),
        format!("{measured}; the worst is {worst:.2} of what its bound allows"),
        result.device,
    ))
}

impl SectionHooks for Accuracy {
    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        [(0, &TABLE_C1[..]), (1, &TABLE_C1_SPECIALIZED[..])]
            .into_iter()
            .filter_map(|(claim, table)| table_c1_row(result, claim, table))
            .collect()
    }

    fn narrative(&self, _result: &ExperimentResult, _report: &Report) -> Vec<String> {
        vec![
            "**Then vs now.** The OpenCL guide documents `native_sin` within an absolute 2^-21.41 and `native_cos` \
             within 2^-21.19 on [−π, π], and `native_log2` within an absolute 2^-22 on [0.5, 2]; the PTX ISA states \
             the same kind of bounds for today's `sin.approx`, `cos.approx` and `lg2.approx`, and none past \
             100π for the sines: their large-argument errors below are what the hardware does there. The \
             device layer's sine keeps its bound at every argument (Payne–Hanek reduction past 2^17); \
             CUDA C's `sinf` does the same in NVIDIA's library."
                .into(),
            "**The device layer against CUDA's library.** `sin` is the sine to call (one compare, a Cody–Waite \
             reduction and one polynomial chosen by the quadrant up to 2^17, no conversion instruction; \
             Payne–Hanek beyond). `exp` is the exponential to call: CUDA's `expf` instruction for instruction \
             (a saturating FMA and one rounded down clamp and split x·log2 e, `ex2.approx.ftz` on the fraction, \
             the power of two from the bits), so it should give `expf`'s bits. `exp_accurate` is the tighter \
             variant (FMAs only); the table shows what its bound costs. In the `instructions` chains \
             `v ← f(v) + b`, nvcc fuses `expf`'s last multiply with the add (its default `-fmad=true`), while \
             rustc keeps Rust's add separate (`add.rn.f32`): one more instruction per `exp` in the Rust loop, \
             not in the function."
                .into(),
        ]
    }

    fn tables(&self, result: &ExperimentResult, report: &Report) -> Option<String> {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| function | arguments | implementation | max error (ulp) | mean (ulp) | max absolute error | documented \
             bound | inputs past it |"
        );
        let _ = writeln!(out, "|---|---|---|---:|---:|---:|---|---:|");
        for series in &result.series {
            let Some(function) = MathFunction::ALL
                .into_iter()
                .find(|f| function_name(*f) == series.key.kernel)
            else {
                continue;
            };
            for point in &series.points {
                let Some(range) = range_at(point.at) else { continue };
                let extra = |name: &str| point.extra.get(name).copied();
                let max = match point.median() {
                    Some(ulp) => format!("{ulp:.3}"),
                    None => point.status.label().into(),
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {max} | {} | {} | {} | {} |",
                    function_label(function, series.key.implementation),
                    range.label(),
                    series.key.implementation.label(),
                    extra(MEAN_ULP).map_or("—".into(), |m| format!("{m:.3}")),
                    extra(MAX_ABSOLUTE).map_or("—".into(), |a| format!("{a:.2e}")),
                    bound_text(bound_for(function, range, series.key.implementation)),
                    extra(PAST_BOUND).map_or("—".into(), |p| format!("{p:.0}")),
                );
            }
        }
        let _ = writeln!(out, "\n{}", device_math_table(result, report));
        let _ = writeln!(
            out,
            "ulp: the spacing of f32 numbers at the exact value. Bounds are against the exact value (the PTX ISA's \
             'from the correctly rounded result' plus half an ulp); large-argument sines have none documented, so \
             nothing is past it."
        );
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::math_accuracy::MathFunction;

    use super::{bound_text, function_name, sweep_failure};
    use crate::reference::ErrorBound;
    use crate::report::{LedgerRow, Series};
    use crate::testbed::Implementation;

    /// `f`'s max-error series by `implementation`: `small` ulp at small arguments, 1 at large ones.
    fn at(f: MathFunction, implementation: Implementation, small: f64) -> Series {
        crate::experiments::execution_fixtures::series(
            function_name(f),
            implementation,
            ("f32", ""),
            &[(0, small), (1, 1.0)],
            &[],
        )
    }

    /// The accuracy ledger of a result holding `series`.
    fn ledger(series: Vec<Series>) -> Vec<LedgerRow> {
        use crate::experiments::execution_fixtures::{report, result};
        use crate::report::{Metric, SectionHooks};
        let r = result("accuracy", Metric::custom("max error", "ulp", false), series);
        super::Accuracy.ledger(&r, &report(vec![r.clone()]))
    }

    #[test]
    fn names_are_distinct_and_bounds_read_as_powers_of_two() {
        let mut names: Vec<&str> = MathFunction::ALL.iter().map(|&f| function_name(f)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), MathFunction::ALL.len());
        assert_eq!(bound_text(ErrorBound::Absolute(2f64.powf(-20.5))), "absolute 2^-20.50");
        assert_eq!(bound_text(ErrorBound::Relative(2f64.powi(-22))), "relative 2^-22");
        assert_eq!(bound_text(ErrorBound::Ulp(2.5)), "2.5 ulp");
    }

    #[test]
    fn the_rust_accurate_sine_must_match_the_cpu_bit_for_bit() {
        let inputs = [0.5f32, 1.0e6, -3.0];
        let mut got: Vec<f32> = inputs.iter().map(|&x| crate::device::sin(x)).collect();
        assert_eq!(
            sweep_failure(MathFunction::Sin, Implementation::Rust, &inputs, &got),
            None
        );
        got[1] = f32::from_bits(got[1].to_bits() + 1);
        let why = sweep_failure(MathFunction::Sin, Implementation::Rust, &inputs, &got).unwrap();
        assert!(why.contains("1e6"), "{why}");
        // CUDA's sinf is NVIDIA's code: only finiteness is checked.
        assert_eq!(
            sweep_failure(MathFunction::Sin, Implementation::CudaC, &inputs, &got),
            None
        );
        got[0] = f32::NAN;
        assert!(sweep_failure(MathFunction::SinApprox, Implementation::CudaC, &inputs, &got).is_some());
    }

    #[test]
    fn unlike_cuda_counts_other_bits_but_not_two_nans() {
        let outputs = vec![
            (0, Implementation::Rust, vec![1.0f32, f32::NAN, 2.0, 3.0]),
            (
                1,
                Implementation::CudaC,
                vec![1.0f32, -f32::NAN, 2.0f32.next_up(), -3.0],
            ),
        ];
        assert_eq!(super::unlike_cuda(&outputs), Some(2));
        assert_eq!(super::unlike_cuda(&outputs[..1]), None, "no count without the twin");
    }

    #[test]
    fn the_table_sets_each_error_beside_its_bound_and_the_ledger_cites_it() {
        use kernels_gpu::instruction_throughput::ThroughputKernel;

        use super::UNLIKE_EXPF;
        use super::{MAX_ABSOLUTE, MEAN_ULP, PAST_BOUND};
        use crate::experiments::execution_fixtures::{rendered, result, series};
        use crate::report::Metric;
        let (rust, cuda) = (Implementation::Rust, Implementation::CudaC);
        let function = |f: MathFunction, implementation, ulp: f64| {
            let mut extras = vec![(0, MEAN_ULP, 0.25), (0, MAX_ABSOLUTE, 3e-7), (0, PAST_BOUND, 0.0)];
            if f == MathFunction::Exp && implementation == Implementation::Rust {
                extras.push((0, UNLIKE_EXPF, 0.0));
            }
            series(
                function_name(f),
                implementation,
                ("f32", ""),
                &[(0, ulp), (1, 1e6)],
                &extras,
            )
        };
        let accuracy = result(
            "accuracy",
            Metric::custom("max error", "ulp", false),
            vec![
                function(MathFunction::SinApprox, rust, 3.5),
                function(MathFunction::Sin, rust, 1.2),
                function(MathFunction::Sin, cuda, 1.5),
                function(MathFunction::Exp, rust, 1.8),
                function(MathFunction::Exp, cuda, 1.88),
                function(MathFunction::ExpAccurate, rust, 0.97),
            ],
        );
        let rate = |k: ThroughputKernel, implementation, gops: f64| {
            series(k.entry(), implementation, ("f32", ""), &[(0, gops)], &[])
        };
        let instructions = result(
            "instructions",
            Metric::custom("throughput", "Gop/s", true),
            vec![
                rate(ThroughputKernel::SinApprox, rust, 4000.0),
                rate(ThroughputKernel::Sin, rust, 500.0),
                rate(ThroughputKernel::Sin, cuda, 400.0),
                rate(ThroughputKernel::ExpFast, rust, 4000.0),
                rate(ThroughputKernel::Exp, rust, 3000.0),
                rate(ThroughputKernel::Exp, cuda, 3003.0),
                rate(ThroughputKernel::ExpAccurate, rust, 1000.0),
            ],
        );
        let (markdown, _, rows) = rendered(vec![instructions, accuracy]);
        assert!(
            markdown.contains(
                "| sin.approx.f32 (__sinf) | small arguments | Rust | 3.500 | 0.250 | 3.00e-7 | absolute 2^-20.50 | 0 |"
            ),
            "{markdown}"
        );
        assert!(
            markdown.contains("| sin (device layer) | large arguments | Rust | 1000000.000 |"),
            "{markdown}"
        );
        // The device layer beside CUDA's library: Gop/s from `instructions`, ratios to CUDA's.
        for line in [
            "| CUDA C `sinf` | small arguments | 400 | 1.000 | 1.500 | 1.000 | 2.5 ulp | — |",
            "| Rust `sin` (the default) | small arguments | 500 | 1.250 | 1.200 | 0.800 | 1.6 ulp | — |",
            "| Rust `sin` (the default) | large arguments | — | — | 1000000.000 | 1.000 | 1.6 ulp | — |",
            "| Rust `exp` (the default) | small arguments | 3000 | 0.999 | 1.800 | 0.957 | 2 ulp | 0 |",
            "| Rust `exp_accurate` (tighter) | small arguments | 1000 | 0.333 | 0.970 | 0.516 | 1.05 ulp | — |",
        ] {
            assert!(markdown.contains(line), "{line}\n{markdown}");
        }
        let row = rows
            .iter()
            .find(|r| r.id == "bpg-5.1.4-fast-math")
            .expect("the fast-math row");
        assert!(
            row.measured.contains("sin_approx 3.50 ulp, sin 1.20 ulp"),
            "{}",
            row.measured
        );
    }

    #[test]
    fn the_library_functions_are_held_to_table_c1() {
        use crate::report::Verdict;
        let of = |expf: f64| {
            ledger(vec![
                at(MathFunction::Sin, Implementation::CudaC, 1.4),
                at(MathFunction::Exp, Implementation::CudaC, expf),
                at(MathFunction::RsqrtApprox, Implementation::Rust, 1.5),
                at(MathFunction::SinApprox, Implementation::Rust, 1e7),
            ])
        };
        let rows = of(1.9);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].verdict, Verdict::Holds, "{}", rows[0].measured);
        assert!(
            rows[0]
                .measured
                .contains("expf (CUDA's library) 1.90 ulp (small arguments; allowed 2.5)")
                && rows[0].measured.contains("the worst is 0.76 of what its bound allows"),
            "{}",
            rows[0].measured
        );
        assert_eq!(of(3.0)[0].verdict, Verdict::Weaker, "3 ulp: past 2.5, within twice it");
        assert_eq!(of(6.0)[0].verdict, Verdict::Gone);
        assert!(ledger(Vec::new()).is_empty());
    }

    #[test]
    fn the_specialized_functions_are_held_to_their_own_bounds() {
        use crate::report::Verdict;
        let of = |cbrtf: f64| {
            ledger(vec![
                at(MathFunction::Exp2, Implementation::CudaC, 1.0),
                at(MathFunction::Exp10, Implementation::CudaC, 1.5),
                at(MathFunction::Cbrt, Implementation::CudaC, cbrtf),
                at(MathFunction::Cos, Implementation::CudaC, 1.4),
                // The device layer's cbrt is shown, not graded.
                at(MathFunction::Cbrt, Implementation::Rust, 100.0),
            ])
            .into_iter()
            .find(|row| row.id == "ocl-b.1.1-specialized-max-ulp")
            .expect("the row")
        };
        // cbrt's bound is 1 ulp from the correctly rounded result: 1.5 of the exact value.
        let holds = of(1.2);
        assert_eq!(holds.verdict, Verdict::Holds, "{}", holds.measured);
        assert!(
            holds
                .measured
                .contains("cbrtf (CUDA's library) 1.20 ulp (small arguments; allowed 1.5)"),
            "{}",
            holds.measured
        );
        assert!((holds.figure.unwrap().median - 0.8).abs() < 1e-9);
        assert_eq!(of(2.0).verdict, Verdict::Weaker, "2 ulp: past 1.5, within twice it");
        assert_eq!(of(4.0).verdict, Verdict::Gone);
    }
}
