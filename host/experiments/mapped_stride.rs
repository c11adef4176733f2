//! Guide §3.1.3: the loads that read mapped (zero-copy) host memory should be
//! coalesced. `stride_copy` reads a 64 MiB mapped buffer at strides 1, 4 and
//! 32 floats (each thread one float; at 32, every thread of a warp in its own
//! 128-byte line), into device memory. Every load crosses the host link, so a
//! strided load pays a whole request over the link for its four bytes: the
//! useful bytes per second fall with the stride, far below the link's rate.

use super::{Experiment, RunContext};
use crate::copy_element::pattern;
use crate::error::Result;
use crate::launchers::{ArrayId, KernelSet, MappedRunner, MappedStep, Memory, mapped_runners};
use crate::report::{Axis, Bound, Claim, ExperimentResult, Figure, LedgerRow, Metric, Point, PointKey, Report, Rule};
use crate::report::{Scale, SectionHooks, Series, Spread, Unit, Waiver, Work};
use crate::testbed::Implementation;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

pub struct MappedStride;

/// Floats in the mapped buffer (64 MiB: past an H100's L2, so no pass reads a cached copy).
const LEN: usize = 16 << 20;

/// Strides in floats: coalesced, four per 16 bytes, one per 128-byte line.
const STRIDES: [i32; 3] = [1, 4, 32];

/// Every point's extra figure: useful bytes read over the host link per second.
const USEFUL_GBPS: &str = "useful host link GB/s";

/// Threads at `stride`: as many whole 256-thread blocks as the buffer holds elements at that stride.
fn threads(stride: i32) -> u64 {
    let block = COPY_BLOCK_THREADS as u64;
    (LEN as u64 / stride as u64) / block * block
}

impl Experiment for MappedStride {
    fn name(&self) -> &'static str {
        "mapped-stride"
    }
    fn title(&self) -> &'static str {
        "Zero copy with a stride: uncoalesced loads from mapped host memory"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1.3"
    }
    fn points(&self) -> u64 {
        STRIDES.len() as u64
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        if !ctx.device.info().can_map_host_memory {
            return Err(format!("{} cannot map host memory", ctx.device.info().name));
        }
        Ok(())
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("stride (floats)", Metric::Time).x_scale(Scale::Log2);
        let mut result = ctx.result(self, axis, "");
        let source: Vec<f32> = pattern(LEN);
        let (mut runners, waived) = mapped_runners(ctx.device, KernelSet::WithTwins)?;
        for (_, reason) in waived {
            let what = "the CUDA C twin's series".into();
            result.waived.push(Waiver { what, reason });
        }
        for runner in &mut runners {
            let (mapped, out) = (runner.array(Memory::Mapped, LEN)?, runner.array(Memory::Device, LEN)?);
            runner.write(mapped, &source)?;
            for implementation in runner.implementations().to_vec() {
                let key = ctx.key("stride_copy", implementation, "f32").variant("mapped input");
                let mut series = Series::new(key, "stride_copy from mapped host memory");
                for (done, stride) in STRIDES.into_iter().enumerate() {
                    if ctx.stop_before(done, STRIDES.len()) {
                        break;
                    }
                    ctx.progress
                        .set_message(format!("mapped-stride {} stride {stride}", implementation.label()));
                    let arrays = (mapped, out);
                    series.points.extend(measure(
                        runner.as_mut(),
                        ctx,
                        (implementation, stride),
                        arrays,
                        &source,
                    )?);
                    ctx.progress.inc(1);
                }
                result.series.push(series);
            }
        }
        result.notes.push(format!(
            "one float per thread read from a {} MiB mapped buffer at the stride and written to the same index of a \
             device buffer; every point's output checked: each strided element copied, every other left untouched",
            (4 * LEN) >> 20
        ));
        Ok(result)
    }
}

/// One point: the output reset, `implementation`'s `stride_copy` from the mapped input at `stride` timed,
/// the output checked.
fn measure(
    runner: &mut dyn MappedRunner,
    ctx: &RunContext<'_>,
    (implementation, stride): (Implementation, i32),
    (mapped, out): (ArrayId, ArrayId),
    source: &[f32],
) -> Result<Option<Point>> {
    let threads = threads(stride);
    let step = MappedStep::StrideCopy {
        implementation,
        from: mapped,
        to: out,
        threads,
        stride,
    };
    runner.fill(out, LEN, -1.0)?;
    let times = runner.time(&[step], ctx.settings)?;
    let failure = stride_mismatch(&runner.read(out, LEN)?, source, threads, stride);
    let useful = 4 * threads;
    let work = Work::bytes(threads, 2 * useful);
    let mut point = Point::timed(PointKey::Value(stride as i64), &Metric::Time, work, &times, failure);
    if let Some(p) = point.as_mut()
        && let Some(ms) = p.median()
    {
        p.set_extra(USEFUL_GBPS, useful as f64 / 1e9 / (ms / 1e3));
    }
    Ok(point)
}

/// Why `out` (filled with -1 before) is not `threads` elements of `source` at `stride`.
fn stride_mismatch(out: &[f32], source: &[f32], threads: u64, stride: i32) -> Option<String> {
    let stride = stride as usize;
    out.iter().enumerate().find_map(|(i, &got)| {
        let copied = i % stride == 0 && ((i / stride) as u64) < threads;
        let expected = if copied { source[i] } else { -1.0 };
        (got.to_bits() != expected.to_bits()).then(|| format!("element {i} is {got}, expected {expected}"))
    })
}

/// Nanoseconds per useful float at `stride` (Rust), with its spread.
fn per_float(result: &ExperimentResult, stride: i32) -> Option<(Spread, f64)> {
    let series = result.variant("stride_copy", Implementation::Rust, "mapped input")?;
    let point = series
        .point(PointKey::Value(stride as i64))
        .filter(|p| p.status.is_ok())?;
    let time = point.time_ms?;
    let (low, high) = time.median_interval();
    let per = 1e6 / threads(stride) as f64;
    let spread = Spread {
        low: low * per,
        median: time.median * per,
        high: high * per,
    };
    Some((spread, *point.extra.get(USEFUL_GBPS)?))
}

impl SectionHooks for MappedStride {
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound {
            figure: Figure::Extra(USEFUL_GBPS),
            unit: Unit::HostLink,
            stored_ceiling: None,
        }]
    }

    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let texts: Vec<String> = STRIDES
            .iter()
            .filter_map(|&s| Some(format!("stride {s}: {:.2} GB/s", per_float(result, s)?.1)))
            .collect();
        if texts.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "Useful bytes read from mapped memory per second (Rust): {}. Each strided load is its own request over \
             the host link, so zero copy pays for uncoalesced access far more than device memory does.",
            texts.join(", ")
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.1.3-mapped-coalesced",
            source: "Best Practices Guide §3.1.3",
            claim: "The loads and stores that access mapped host memory should be coalesced".into(),
            rule: Rule::Direction,
            reads: "stride_copy · Rust from mapped memory: the time per useful float at stride 32 over stride 1".into(),
            experiment: "mapped-stride",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let (Some((coalesced, gbps_1)), Some((strided, gbps_32))) = (per_float(result, 1), per_float(result, 32))
        else {
            return Vec::new();
        };
        let figure = Spread {
            low: strided.low / coalesced.high,
            median: strided.median / coalesced.median,
            high: strided.high / coalesced.low,
        };
        let beside = per_float(result, 4).map_or(String::new(), |(_, gbps)| format!("; stride 4 {gbps:.2} GB/s"));
        let measured = format!(
            "useful GB/s from mapped memory: stride 1 {gbps_1:.2}, stride 32 {gbps_32:.2} ({}x the time per float){beside}",
            figure.text(1)
        );
        vec![self.claims()[0].grade(figure, measured, result.device)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::{LEN, MappedStride, USEFUL_GBPS, stride_mismatch, threads};
    use crate::report::{Metric, Report, SectionHooks, Verdict};
    use crate::run_settings::RunSettings;
    use crate::stats::Summary;
    use crate::testbed::Implementation;

    /// The verdict from milliseconds at strides 1, 4 and 32.
    fn verdict(ms: [f64; 3]) -> Verdict {
        let mut s = series(
            "stride_copy",
            Implementation::Rust,
            "mapped input",
            &[(1, ms[0]), (4, ms[1]), (32, ms[2])],
            &[],
        );
        for (p, (stride, ms)) in s.points.iter_mut().zip([(1, ms[0]), (4, ms[1]), (32, ms[2])]) {
            p.time_ms = Summary::of(&[ms]);
            p.set_extra(USEFUL_GBPS, 4.0 * threads(stride) as f64 / 1e6 / ms);
        }
        let r = result("mapped-stride", Metric::Time, vec![s]);
        let report = Report::new(Vec::new(), &RunSettings::default(), Vec::new(), Vec::new(), Vec::new());
        let rows = MappedStride.ledger(&r, &report);
        assert_eq!(rows.len(), 1);
        rows[0].verdict
    }

    #[test]
    fn a_request_per_float_over_the_link_makes_strided_zero_copy_slow() {
        // 64 MiB at 25 GB/s: 2.7 ms; stride 32 reads 2 MiB, each float its own request at ~1 GB/s: 2 ms.
        assert_eq!(verdict([2.7, 1.4, 2.0]), Verdict::Holds);
        // As fast per float as the coalesced read (a cache in front of the link): gone.
        assert_eq!(verdict([2.7, 0.68, 2.7 / 32.0]), Verdict::Gone);
        assert_eq!(verdict([2.7, 0.68, 0.05]), Verdict::Reversed);
    }

    #[test]
    fn a_missed_or_stray_element_is_found() {
        let (n, stride) = (1024, 4);
        let source: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let t = 256u64;
        let mut out: Vec<f32> = (0..n).map(|i| if i % 4 == 0 { i as f32 } else { -1.0 }).collect();
        assert_eq!(stride_mismatch(&out, &source, t, stride), None);
        out[1] = 1.0;
        assert!(
            stride_mismatch(&out, &source, t, stride)
                .unwrap()
                .contains("element 1 ")
        );
        out[1] = -1.0;
        out[8] = -1.0;
        assert!(
            stride_mismatch(&out, &source, t, stride)
                .unwrap()
                .contains("element 8 ")
        );
        assert_eq!(threads(32), (LEN / 32) as u64);
    }
}
