//! Best Practices Guide §1.1.2: whether work is worth moving to the GPU
//! depends on its operations per element transferred. Two N×N matrices go to
//! the device and the result comes back (3N² elements over the host link);
//! adding them is N² additions, O(1) per element moved, multiplying them
//! N³ multiply-adds, O(N). The transfer time against each kernel's time:
//! for the addition the transfers dwarf the kernel, for the multiplication
//! the kernel outweighs them, more so the larger N.

use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::{KernelSet, MappedRunner, MappedStep, Memory, mapped_runners};
use crate::reference::{dot_error_bound, matmul_element};
use crate::report::{Axis, Bound, Claim, ExperimentResult, Figure, LedgerRow, Metric, Point, PointKey, Report, Rule};
use crate::report::{Scale, SectionHooks, Series, Spread, Unit, Work, slower_by};
use crate::testbed::Implementation;

pub struct TransferIntensity;

/// Matrix sizes N (N×N f32).
const SIZES: [usize; 3] = [512, 1024, 2048];

/// The three series: (kernel, implementation, variant), in the order measured.
const CASES: [(&str, Implementation, &str); 3] = [
    ("memcpy", Implementation::CopyEngine, "A and B in, C out (pinned)"),
    ("ptx_device_vecadd", Implementation::Rust, "C = A + B"),
    ("tiled_sgemm", Implementation::Rust, "C = A · B"),
];

/// Each series' extra figure and the unit that bounds it.
const EXTRAS: [(&str, Unit); 3] = [
    ("host link GB/s", Unit::HostLink),
    ("GB/s", Unit::Dram),
    ("GFLOP/s", Unit::Fp32),
];

/// Elements of `C = A · B` checked against the CPU reference (a pseudo-random sample and the corners).
const MULTIPLY_CHECKS: usize = 64;

/// A matrix element in [-1, 1], different for A (`salt` 0) and B (1).
fn element(i: usize, salt: usize) -> f32 {
    ((i * 7919 + salt * 104_729) % 2001) as f32 / 1000.0 - 1.0
}

impl Experiment for TransferIntensity {
    fn name(&self) -> &'static str {
        "transfer-intensity"
    }
    fn title(&self) -> &'static str {
        "Transfers against arithmetic intensity: N×N matrix addition and multiplication"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §1.1.2"
    }
    fn points(&self) -> u64 {
        (SIZES.len() * CASES.len()) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("N (matrix N×N)", Metric::Time)
            .x_scale(Scale::Log2)
            .y_scale(Scale::Log10);
        let mut result = ctx.result(self, axis, "");
        let mut series: Vec<Series> = CASES
            .iter()
            .map(|&(kernel, implementation, variant)| {
                Series::new(ctx.key(kernel, implementation, "f32").variant(variant), variant)
            })
            .collect();
        let (mut runners, _) = mapped_runners(ctx.device, KernelSet::Rust)?;
        for runner in &mut runners {
            for (done, n) in SIZES.into_iter().enumerate() {
                if ctx.stop_before(done, SIZES.len()) {
                    break;
                }
                ctx.progress.set_message(format!("transfer-intensity N = {n}"));
                for (case, point) in measure(runner.as_mut(), ctx, n)?.into_iter().enumerate() {
                    series[case].points.extend(point);
                    ctx.progress.inc(1);
                }
            }
        }
        result.series.extend(series);
        result.notes.push(format!(
            "the transfer: A and B uploaded from pinned memory and C downloaded, one stream, events around them \
             (3N² floats); the addition: ptx_device_vecadd over the N² elements; the multiplication: the OpenCL \
             guide's tiled SGEMM (tiled_sgemm, Rust); each ratio divides medians; the uploads checked against A and B, \
             the download against the device's C, every sum exactly, {MULTIPLY_CHECKS} products of each size within \
             the dot product's error bound"
        ));
        Ok(result)
    }
}

/// The three points at `n`: transfer, addition, multiplication (in the order of [`CASES`]).
fn measure(runner: &mut dyn MappedRunner, ctx: &RunContext<'_>, n: usize) -> Result<[Option<Point>; 3]> {
    let len = n * n;
    let a: Vec<f32> = (0..len).map(|i| element(i, 0)).collect();
    let b: Vec<f32> = (0..len).map(|i| element(i, 1)).collect();
    runner.free_arrays(); // the last size's
    let (host_a, host_b, host_c) = (
        runner.array(Memory::Pinned, len)?,
        runner.array(Memory::Pinned, len)?,
        runner.array(Memory::Pinned, len)?,
    );
    runner.write(host_a, &a)?;
    runner.write(host_b, &b)?;
    let (da, db, dc) = (
        runner.array(Memory::Device, len)?,
        runner.array(Memory::Device, len)?,
        runner.array(Memory::Device, len)?,
    );
    runner.fill(dc, len, 0.0)?;
    let copy = |from, to| MappedStep::Copy { from, to, n: len };
    let transfer = runner.time(&[copy(host_a, da), copy(host_b, db), copy(dc, host_c)], ctx.settings)?;
    let moved = (runner.read(da, len)? != a
        || runner.read(db, len)? != b
        || runner.read(host_c, len)? != runner.read(dc, len)?)
    .then(|| "a transferred matrix differs from its source".to_string());
    let add = MappedStep::Add {
        a: da,
        b: db,
        c: dc,
        n: len as u64,
    };
    let add = runner.time(&[add], ctx.settings)?;
    let sums = runner.read(dc, len)?;
    let sum_wrong = (0..len)
        .find(|&i| sums[i].to_bits() != (a[i] + b[i]).to_bits())
        .map(|i| format!("C[{i}] is {} but A + B is {}", sums[i], a[i] + b[i]));
    let multiply = MappedStep::Multiply {
        implementation: Implementation::Rust,
        a: da,
        b: db,
        c: dc,
        n: n as u32,
    };
    let multiply = runner.time(&[multiply], ctx.settings)?;
    let product_wrong = product_mismatch(&runner.read(dc, len)?, &a, &b, n);
    let bytes = 3 * 4 * len as u64;
    let flops = 2 * (n as u64).pow(3);
    let works = [
        Work::bytes(len as u64, bytes),
        Work::bytes(len as u64, bytes),
        Work::bytes(len as u64, bytes).with_flops(flops),
    ];
    let figures = [bytes as f64, bytes as f64, flops as f64];
    let measured = [(transfer, moved), (add, sum_wrong), (multiply, product_wrong)];
    let points = measured.into_iter().zip(works).zip(EXTRAS.into_iter().zip(figures));
    let points = points.map(|(((times, failure), work), ((extra, _), per_launch))| {
        let mut point = Point::timed(PointKey::Value(n as i64), &Metric::Time, work, &times, failure)?;
        if let Some(ms) = point.median() {
            // Bytes (FLOPs) per launch / 1e9 per second: GB/s (GFLOP/s).
            point.set_extra(extra, per_launch / 1e9 / (ms / 1e3));
        }
        Some(point)
    });
    let points: Vec<Option<Point>> = points.collect();
    let [transfer, add, multiply] = <[Option<Point>; 3]>::try_from(points).unwrap_or_default();
    Ok([transfer, add, multiply])
}

/// The first sampled element of `c` (`n × n`, = A · B) outside the dot product's error bound, described.
fn product_mismatch(c: &[f32], a: &[f32], b: &[f32], n: usize) -> Option<String> {
    let corners = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)];
    let sample = (0..MULTIPLY_CHECKS).map(|s| ((s * 7919 + 13) % n, (s * 104_729 + 7) % n));
    corners.into_iter().chain(sample).find_map(|(row, col)| {
        let (expected, scale) = matmul_element(a, b, (n, n), row, col);
        let (got, bound) = (c[row * n + col], dot_error_bound(n) * scale + 1e-30);
        let error = (got as f64 - expected as f64).abs();
        (error.is_nan() || error > bound)
            .then(|| format!("C[{row}][{col}] is {got} but the CPU reference says {expected} (bound {bound:.3e})"))
    })
}

/// The largest N with all three points: (N, transfer, addition, multiplication).
fn largest(result: &ExperimentResult) -> Option<(i64, [&Point; 3])> {
    let series: Vec<&Series> = CASES
        .iter()
        .map(|&(kernel, implementation, variant)| result.variant(kernel, implementation, variant))
        .collect::<Option<_>>()?;
    series[0].points.iter().rev().find_map(|p| {
        let points = [p, series[1].point(p.at)?, series[2].point(p.at)?];
        let measured = points.iter().all(|q| q.median().is_some());
        measured.then_some((p.at.value()?, points))
    })
}

/// "N = n: transfer t ms; addition a ms (transfer / kernel x); multiplication m ms (y)" at every size measured.
fn ratios_text(result: &ExperimentResult) -> Vec<String> {
    let series: Option<Vec<&Series>> = CASES
        .iter()
        .map(|&(kernel, implementation, variant)| result.variant(kernel, implementation, variant))
        .collect();
    let Some(series) = series else {
        return Vec::new();
    };
    series[0]
        .points
        .iter()
        .filter_map(|p| {
            let (t, a, m) = (
                p.median()?,
                series[1].point(p.at)?.median()?,
                series[2].point(p.at)?.median()?,
            );
            Some(format!(
                "N = {}: transfers {t:.3} ms, addition {a:.4} ms (transfers / kernel {:.0}), multiplication {m:.3} ms \
                 ({:.2})",
                p.at.value()?,
                t / a,
                t / m
            ))
        })
        .collect()
}

impl SectionHooks for TransferIntensity {
    fn bounds(&self, _result: &ExperimentResult, series: &Series) -> Vec<Bound> {
        CASES
            .iter()
            .zip(EXTRAS)
            .filter(|((kernel, implementation, variant), _)| {
                series.key.kernel == *kernel
                    && series.key.implementation == *implementation
                    && series.key.variant == *variant
            })
            .map(|(_, (extra, unit))| Bound {
                figure: Figure::Extra(extra),
                unit,
                stored_ceiling: None,
            })
            .collect()
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let texts = ratios_text(result);
        if texts.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "{}. Moving 3N² floats costs far more than adding them on the GPU; multiplying them takes longer than \
             moving them, and the gap grows with N (N³ operations for N² elements).",
            texts.join("; ")
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-1.1.2-transfer-vs-intensity",
            source: "Best Practices Guide §1.1.2",
            claim: "An N×N matrix addition (O(1) operations per element transferred) is not worth moving to the GPU \
                    on its own; a multiplication of the same matrices (O(N)) is"
                .into(),
            rule: Rule::Direction,
            reads: "ptx_device_vecadd and tiled_sgemm · Rust at the largest N: the lesser of (transfer time of A, B \
                    and C over the addition kernel's time) and (the multiplication kernel's time over the same \
                    transfer time); both above 1 is the claimed direction"
                .into(),
            experiment: "transfer-intensity",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some((n, [transfer, add, multiply])) = largest(result) else {
            return Vec::new();
        };
        let (Some(add_ratio), Some(multiply_ratio)) = (slower_by(transfer, add), slower_by(multiply, transfer)) else {
            return Vec::new();
        };
        let figure = Spread {
            low: add_ratio.low.min(multiply_ratio.low),
            median: add_ratio.median.min(multiply_ratio.median),
            high: add_ratio.high.min(multiply_ratio.high),
        };
        let ms = |p: &Point| p.median().unwrap_or(f64::NAN);
        let measured = format!(
            "N = {n}: transfers (A, B in, C out) {:.3} ms; addition {:.4} ms (transfers / kernel {}); \
             multiplication {:.3} ms (kernel / transfers {})",
            ms(transfer),
            ms(add),
            add_ratio.text(1),
            ms(multiply),
            multiply_ratio.text(2)
        );
        vec![self.claims()[0].grade(figure, measured, result.device)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{CASES, TransferIntensity, element, product_mismatch};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;

    /// The row from (transfer, addition, multiplication) milliseconds at N = 2048.
    fn verdict(ms: [f64; 3]) -> Verdict {
        let mut cases = Vec::new();
        for (&(kernel, implementation, variant), ms) in CASES.iter().zip(ms) {
            let mut s = series(kernel, implementation, variant, &[(2048, ms)], &[]);
            s.points[0].time_ms = Summary::of(&[ms]);
            cases.push(s);
        }
        let r = result("transfer-intensity", Metric::Time, cases);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = TransferIntensity.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows[0].verdict
    }

    #[test]
    fn addition_loses_to_its_transfers_and_multiplication_wins_over_them() {
        // 48 MiB over a 50 GB/s link (1 ms); adding at 3 TB/s (16 us); multiplying 17 GFLOP at 5 TFLOP/s (3.4 ms).
        assert_eq!(verdict([1.0, 0.016, 3.4]), Verdict::Holds);
        // A multiplication as quick as its transfers: the claim's second half is gone.
        assert_eq!(verdict([1.0, 0.016, 1.02]), Verdict::Gone);
        // A multiplication quicker than its transfers: reversed, though addition still loses.
        assert_eq!(verdict([1.0, 0.016, 0.5]), Verdict::Reversed);
        // An addition slower than its transfers (a link faster than memory): reversed.
        assert_eq!(verdict([1.0, 2.0, 3.4]), Verdict::Reversed);
    }

    #[test]
    fn a_wrong_product_is_found_and_a_right_one_passes() {
        let n = 16;
        let a: Vec<f32> = (0..n * n).map(|i| element(i, 0)).collect();
        let b: Vec<f32> = (0..n * n).map(|i| element(i, 1)).collect();
        let mut c: Vec<f32> = (0..n * n)
            .map(|i| crate::reference::matmul_element(&a, &b, (n, n), i / n, i % n).0)
            .collect();
        assert_eq!(product_mismatch(&c, &a, &b, n), None);
        c[n * n - 1] += 0.5;
        assert!(product_mismatch(&c, &a, &b, n).unwrap().contains("C[15][15]"));
    }
}
