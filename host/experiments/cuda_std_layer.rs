//! The cost of the Rust-CUDA compatibility layer (`crates/cuda-std`): a
//! vector add and a block sum written as a Rust-CUDA project writes them
//! (`#[kernel]`, slices passed as pointer and length and bounds-checked,
//! `thread::index_1d`, `shared_array!`) beside the same algorithms written
//! against `ptx-device` as the rest of the suite is
//! (`kernels-gpu/src/compat_layer/`): same launch shape, same buffers, several
//! times the L2 size, timed back to back, every output checked bit for bit
//! against the CPU.

use std::fmt::Write;

use super::copy_sweep::buffer_len;
use super::{Experiment, RunContext};
use crate::copy_element::first_mismatch;
use crate::error::Result;
use crate::input_values::matrix_value;
use crate::launchers::{CompatKernel, CompatLayerRunner, KernelLayer, compat_blocks, compat_layer_runners};
use crate::reference::{block_tree_sums, vector_add};
use crate::report::{
    Axis, Bound, ExperimentResult, Metric, PlotKind, Point, PointKey, Report, SectionHooks, Series, Unit, Work,
    better_by, point_cell,
};
use crate::testbed::Implementation;

use kernels_gpu::compat_layer::COMPAT_BLOCK_THREADS;

pub struct CudaStdLayer;

const COUNTING: &str = "vecadd: 12 bytes per element (a and b read, c written); block_sum: 4 bytes per element read \
    plus 4 per block of 256 written";

/// Extra figure: the median against the theoretical DRAM bandwidth.
const PERCENT_OF_PEAK: &str = "% of peak";

/// Bytes one launch of `kernel` over `n` elements moves, as [`COUNTING`] says.
fn bytes_moved(kernel: CompatKernel, n: u64) -> u64 {
    match kernel {
        CompatKernel::VectorAdd => 12 * n,
        CompatKernel::BlockSum => 4 * n + 4 * n.div_ceil(COMPAT_BLOCK_THREADS as u64),
    }
}

/// The series of `kernel` written against `layer`: keyed by the algorithm
/// with the layer as its variant, labelled "vecadd · cuda_std · Rust".
fn series_of(ctx: &RunContext<'_>, kernel: CompatKernel, layer: KernelLayer) -> Series {
    Series::new(
        ctx.key(kernel.name(), Implementation::Rust, "f32")
            .variant(layer.label()),
        format!("{} · {} · Rust", kernel.name(), layer.label()),
    )
}

impl Experiment for CudaStdLayer {
    fn name(&self) -> &'static str {
        "cuda-std"
    }
    fn title(&self) -> &'static str {
        "The cuda_std layer: Rust-CUDA-style kernels beside the suite's own"
    }
    fn source(&self) -> &'static str {
        "beyond the guides: Rust-CUDA's cuda_std API on rustc's nvptx target (crates/cuda-std)"
    }
    fn points(&self) -> u64 {
        CompatKernel::ALL.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("buffer MiB", Metric::Bandwidth).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, COUNTING);
        let n = (buffer_len::<f32>(ctx, 0) as u64).min(u32::MAX as u64);
        let len = n as usize;
        let mib = ((n * 4) >> 20) as i64;
        let a: Vec<f32> = (0..len).map(|i| matrix_value(i, 1)).collect();
        let b: Vec<f32> = (0..len).map(|i| matrix_value(i, 2)).collect();
        let (mut runners, waived) = compat_layer_runners(ctx.device, &a, &b)?;
        result.waive(waived);
        let blocks = compat_blocks(CompatKernel::BlockSum, KernelLayer::CudaStd, n)? as usize;
        for (done, kernel) in CompatKernel::ALL.into_iter().enumerate() {
            if ctx.stop_before(done, CompatKernel::ALL.len()) {
                break;
            }
            let expected = match kernel {
                CompatKernel::VectorAdd => vector_add(&a, &b),
                CompatKernel::BlockSum => block_tree_sums(&a, COMPAT_BLOCK_THREADS as usize),
            };
            let at = (PointKey::Value(mib), Work::bytes(n, bytes_moved(kernel, n)));
            for runner in &mut runners {
                runner.size_output(kernel)?;
                for layer in KernelLayer::ALL {
                    let series = measure(ctx, runner.as_mut(), (kernel, layer), at, &expected)?;
                    result.series.push(series);
                }
            }
            ctx.progress.inc(1);
        }
        result.setup.push(format!(
            "{n} f32 elements ({mib} MiB) per input buffer, 1-D blocks of {COMPAT_BLOCK_THREADS} threads, one \
             element per thread ({blocks} blocks); the cuda_std kernels get each slice as pointer and length \
             (Rust-CUDA's kernel ABI), the ptx-device kernels a pointer each and a u32 count; every output \
             compared bit for bit with the CPU (the block sums add in the kernels' tree order)"
        ));
        Ok(result)
    }
}

/// The series of `kernel` written against `layer` by `runner`: the output
/// from NaN, timed, checked bit for bit against `expected`, its one point at
/// `at` with the median's share of the DRAM peak.
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn CompatLayerRunner,
    (kernel, layer): (CompatKernel, KernelLayer),
    (at, work): (PointKey, Work),
    expected: &[f32],
) -> Result<Series> {
    let mut series = series_of(ctx, kernel, layer);
    ctx.progress.set_message(series.label.clone());
    runner.clear_output()?;
    let times = runner.time(kernel, layer, ctx.settings)?;
    let failure = first_mismatch(&runner.read_output()?, expected);
    let theoretical = ctx.device.info().theoretical_bandwidth_gbps;
    if let Some(mut point) = Point::timed(at, &Metric::Bandwidth, work, &times, failure) {
        if let Some(gbps) = point.median()
            && theoretical > 0.0
        {
            point.set_extra(PERCENT_OF_PEAK, 100.0 * gbps / theoretical);
        }
        series.points.push(point);
    }
    Ok(series)
}

/// The figures of one algorithm: its two series' points and the ratio
/// cuda_std / ptx-device with its spread, where both are ok.
struct Pair<'a> {
    kernel: CompatKernel,
    cuda_std: Option<&'a Point>,
    ptx_device: Option<&'a Point>,
}

impl<'a> Pair<'a> {
    fn of(result: &'a ExperimentResult, kernel: CompatKernel) -> Self {
        let point = |layer: KernelLayer| {
            result
                .variant(kernel.name(), Implementation::Rust, layer.label())?
                .points
                .first()
        };
        Self {
            kernel,
            cuda_std: point(KernelLayer::CudaStd),
            ptx_device: point(KernelLayer::PtxDevice),
        }
    }

    fn ratio(&self) -> Option<crate::report::Spread> {
        better_by(&Metric::Bandwidth, self.cuda_std?, self.ptx_device?).filter(|r| r.is_finite())
    }
}

impl SectionHooks for CudaStdLayer {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        CompatKernel::ALL
            .into_iter()
            .filter_map(|kernel| {
                let pair = Pair::of(result, kernel);
                let (ratio, cuda_std, ptx_device) =
                    (pair.ratio()?, pair.cuda_std?.median()?, pair.ptx_device?.median()?);
                let verdict = if ratio.low <= 1.0 && ratio.high >= 1.0 {
                    "within the samples' spread: the layer costs nothing measurable".to_string()
                } else if ratio.median < 1.0 {
                    format!(
                        "below the samples' spread: the layer costs {:.1}% of the bandwidth",
                        100.0 * (1.0 - ratio.median)
                    )
                } else {
                    "above the samples' spread: the cuda_std build is the faster".to_string()
                };
                Some(format!(
                    "{}: cuda_std · Rust {cuda_std:.1} GB/s, ptx-device · Rust {ptx_device:.1} GB/s; cuda_std / \
                     ptx-device = {} (low–high from the samples' min and max), {verdict}.",
                    kernel.name(),
                    ratio.text(3)
                ))
            })
            .collect()
    }

    /// One row per algorithm: both layers' GB/s and their ratio.
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| kernel | cuda_std · Rust GB/s | ptx-device · Rust GB/s | cuda_std / ptx-device | cuda_std % of DRAM peak |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for kernel in CompatKernel::ALL {
            let pair = Pair::of(result, kernel);
            if pair.cuda_std.is_none() && pair.ptx_device.is_none() {
                continue;
            }
            let ratio = pair.ratio().map(|r| r.text(3)).unwrap_or_else(|| "—".into());
            let peak = pair
                .cuda_std
                .and_then(|p| p.extra.get(PERCENT_OF_PEAK))
                .map(|v| format!("{v:.1}"))
                .unwrap_or_else(|| "—".into());
            let _ = writeln!(
                out,
                "| {} | {} | {} | {ratio} | {peak} |",
                pair.kernel.name(),
                point_cell(pair.cuda_std),
                point_cell(pair.ptx_device)
            );
        }
        let _ = writeln!(
            out,
            "\nGB/s cells: median (min–max over the samples); the ratio's range pairs one side's min with the \
             other's max."
        );
        Some(out)
    }

    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::ledger_fixtures::{device, rendered, result};
    use crate::report::SeriesKey;
    use crate::run_settings::RunSettings;

    /// A point of 1 GiB per launch (past any L2: bounded by DRAM) with these GB/s samples.
    fn point(gbps: &[f64]) -> Point {
        let mut point = Point::measured(PointKey::Value(400), gbps, Work::bytes(1, 1 << 30), None).unwrap();
        point.time_ms = crate::stats::Summary::of(&[1.0]);
        point
    }

    fn series(kernel: CompatKernel, layer: KernelLayer, point: Point) -> Series {
        let key = SeriesKey::new(kernel.name(), Implementation::Rust, "f32").variant(layer.label());
        let mut series = Series::new(key, format!("{} · {} · Rust", kernel.name(), layer.label()));
        series.points.push(point);
        series
    }

    fn layer_result(points: [Point; 4]) -> ExperimentResult {
        let [vec_cuda_std, vec_ptx_device, sum_cuda_std, sum_ptx_device] = points;
        result(
            "cuda-std",
            Metric::Bandwidth,
            vec![
                series(CompatKernel::VectorAdd, KernelLayer::CudaStd, vec_cuda_std),
                series(CompatKernel::VectorAdd, KernelLayer::PtxDevice, vec_ptx_device),
                series(CompatKernel::BlockSum, KernelLayer::CudaStd, sum_cuda_std),
                series(CompatKernel::BlockSum, KernelLayer::PtxDevice, sum_ptx_device),
            ],
        )
    }

    #[test]
    fn the_report_gives_each_pair_its_ratio() {
        let (markdown, _, _) = rendered(layer_result([
            point(&[2900.0, 2950.0, 3000.0]),
            point(&[2910.0, 2950.0, 2990.0]),
            point(&[1500.0, 1510.0, 1520.0]),
            point(&[2000.0, 2010.0, 2020.0]),
        ]));
        assert!(
            markdown.contains("| vecadd | 2950 (2900–3000) | 2950 (2910–2990) | 1.000 (0.970–1.031) |"),
            "{markdown}"
        );
        assert!(
            markdown.contains("| block_sum | 1510 (1500–1520) | 2010 (2000–2020) | 0.751 (0.743–0.760) |"),
            "{markdown}"
        );
        assert!(
            markdown.contains(
                "vecadd: cuda_std · Rust 2950.0 GB/s, ptx-device · Rust 2950.0 GB/s; cuda_std / ptx-device = 1.000 \
                 (0.970–1.031) (low–high from the samples' min and max), within the samples' spread: the layer \
                 costs nothing measurable."
            ),
            "{markdown}"
        );
        assert!(
            markdown.contains(
                "= 0.751 (0.743–0.760) (low–high from the samples' min and max), below the samples' \
                 spread: the layer costs 24.9% of the bandwidth."
            ),
            "{markdown}"
        );
    }

    #[test]
    fn a_failed_point_shows_no_figure_and_no_ratio() {
        let failed = Point::measured(
            PointKey::Value(400),
            &[2950.0],
            Work::bytes(1, 1 << 30),
            Some("element 7 is 1 but the CPU reference says 2".into()),
        )
        .unwrap();
        let (markdown, _, _) = rendered(layer_result([
            failed,
            point(&[2950.0]),
            point(&[1500.0]),
            point(&[1500.0]),
        ]));
        assert!(
            markdown.contains("| vecadd | **FAILED** | 2950 (2950–2950) | — |"),
            "{markdown}"
        );
        assert!(!markdown.contains("vecadd: cuda_std"), "{markdown}");
        assert!(markdown.contains("block_sum: cuda_std"), "{markdown}");
    }

    #[test]
    fn a_figure_past_the_dram_ceiling_fails_its_point() {
        let settings = RunSettings::default();
        let over = layer_result([
            point(&[3300.0, 3700.0, 3800.0]),
            point(&[2950.0]),
            point(&[1500.0]),
            point(&[1500.0]),
        ]);
        let mut report = crate::report::Report::new(vec![device()], &settings, Vec::new(), Vec::new(), vec![over]);
        assert_eq!(report.check_and_grade(&crate::experiments::hooks), 1);
        let failed = &report.experiments[0].series[0].points[0];
        assert!(failed.value.is_none(), "no figure is shown");
        assert!(
            failed.status.to_string().contains("exceeds DRAM's"),
            "{}",
            failed.status
        );
    }

    #[test]
    fn bytes_count_what_each_kernel_must_move() {
        assert_eq!(bytes_moved(CompatKernel::VectorAdd, 1000), 12_000);
        // 1000 elements read, ceil(1000 / 256) = 4 sums written.
        assert_eq!(bytes_moved(CompatKernel::BlockSum, 1000), 4000 + 16);
    }
}
