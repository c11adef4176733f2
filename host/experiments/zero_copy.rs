//! Guide §3.1.3: zero copy. Kernels that read from and write to mapped host
//! memory, beside the copy engines' pinned bandwidth, and an end-to-end case
//! where zero copy replaces an explicit H2D + kernel + D2H.

use super::sweep::each_point;
use super::transfers::transfer_sizes;
use super::{Experiment, RunContext};
use crate::bandwidth::pcie_link_gbps;
use crate::copy_element::{first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::launchers::{ArrayId, KernelSet, MappedRunner, MappedStep, Memory, mapped_runners};
use crate::report::{Axis, ExperimentResult, Metric, Point, PointKey, Report, Scale, SectionHooks, Series, Work};
use crate::report::{Claim, LedgerRow, Rule, slower_by};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;

pub struct ZeroCopy;

/// The sizes swept: 1 MiB to the run's buffer size (at most 1 GiB).
fn sizes(settings: &RunSettings) -> Vec<u64> {
    let max = settings.buffer_mib.map_or(1 << 30, |mib| mib << 20).min(1 << 30);
    transfer_sizes(max).into_iter().filter(|&s| s >= 1 << 20).collect()
}

#[derive(Clone, Copy)]
enum Case {
    /// vector_copy(device ← mapped): the kernel reads host memory over the link.
    KernelReadsMapped,
    /// vector_copy(mapped ← device): the kernel writes host memory over the link.
    KernelWritesMapped,
    /// The copy engine, pinned memory, host to device.
    PinnedUpload,
    /// The copy engine, pinned memory, device to host.
    PinnedDownload,
    /// H2D + vector_copy + D2H with pinned buffers.
    ExplicitRoundTrip,
    /// vector_copy(mapped out ← mapped in): the same result with no copies.
    ZeroCopyRoundTrip,
}

impl Case {
    const ALL: [Case; 6] = [
        Case::KernelReadsMapped,
        Case::KernelWritesMapped,
        Case::PinnedUpload,
        Case::PinnedDownload,
        Case::ExplicitRoundTrip,
        Case::ZeroCopyRoundTrip,
    ];

    fn label(self) -> &'static str {
        match self {
            Case::KernelReadsMapped => "kernel reads mapped host memory",
            Case::KernelWritesMapped => "kernel writes mapped host memory",
            Case::PinnedUpload => "H2D copy (pinned)",
            Case::PinnedDownload => "D2H copy (pinned)",
            Case::ExplicitRoundTrip => "end to end: H2D + kernel + D2H",
            Case::ZeroCopyRoundTrip => "end to end: zero-copy kernel",
        }
    }

    /// (kernel or call, implementation, variant) of the series key.
    fn key(self) -> (&'static str, Implementation, &'static str) {
        match self {
            Case::KernelReadsMapped => ("vector_copy", Implementation::Rust, "reads mapped"),
            Case::KernelWritesMapped => ("vector_copy", Implementation::Rust, "writes mapped"),
            Case::PinnedUpload => ("cuMemcpyHtoD", Implementation::CopyEngine, "pinned"),
            Case::PinnedDownload => ("cuMemcpyDtoH", Implementation::CopyEngine, "pinned"),
            Case::ExplicitRoundTrip => ("vector_copy", Implementation::Rust, "end to end: copies"),
            Case::ZeroCopyRoundTrip => ("vector_copy", Implementation::Rust, "end to end: zero copy"),
        }
    }
}

impl Experiment for ZeroCopy {
    fn name(&self) -> &'static str {
        "zero-copy"
    }
    fn title(&self) -> &'static str {
        "Zero copy: kernels on mapped host memory vs explicit copies"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.1.3, Listing 3.4's setting"
    }
    fn points(&self) -> u64 {
        6
    }
    fn requires(&self, ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        let info = ctx.device.info();
        if !info.can_map_host_memory {
            return Err(format!("{} cannot map host memory (canMapHostMemory = 0)", info.name));
        }
        if sizes(ctx.settings).is_empty() {
            return Err("zero copy sweeps 1 MiB and up: --size-mib is below 1".into());
        }
        Ok(())
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let info = ctx.device.info();
        let mut axis = Axis::lines("size (MiB)", Metric::Bandwidth).x_scale(Scale::Log2);
        if let Some(link) = info.pcie_link.as_deref().and_then(pcie_link_gbps) {
            axis = axis.reference("PCIe link, theoretical per direction", link);
        }
        let mut result = ctx.result(
            self,
            axis,
            "bytes crossing the link: one-way cases count the bytes once, \
                                                  end-to-end cases count input + output",
        );
        let sizes = sizes(ctx.settings);
        let largest = *sizes
            .last()
            .ok_or_else(|| Error::InvalidInput("zero-copy needs at least 1 MiB".into()))?;
        let (mut runners, _) = mapped_runners(ctx.device, KernelSet::Rust)?;
        for runner in &mut runners {
            let first = result.series.len();
            let arrays = ZeroCopyArrays::new(runner.as_mut(), (largest / 4) as usize)?;
            for case in Case::ALL {
                let (kernel, implementation, variant) = case.key();
                result.series.push(Series::new(
                    ctx.key(kernel, implementation, "f32").variant(variant),
                    case.label(),
                ));
            }
            each_point(ctx, sizes.iter().copied(), (0, sizes.len()), |bytes| {
                ctx.progress.set_message(format!("zero-copy {} MiB", bytes >> 20));
                for (index, case) in Case::ALL.into_iter().enumerate() {
                    let point = arrays.measure(runner.as_mut(), ctx, case, bytes)?;
                    result.series[first + index].points.extend(point);
                }
                Ok(())
            })?;
        }
        result.notes.push(format!(
            "every result checked against the input; up to {} launches per sample, fewer where one is long",
            ctx.settings.reps
        ));
        if let Some(link) = &info.pcie_link {
            result.setup.push(format!("the GPU's PCIe link (sysfs): {link}"));
        }
        Ok(result)
    }
}

/// Every array of every case at the largest size, made before any timing.
struct ZeroCopyArrays {
    source: Vec<f32>,
    mapped_in: ArrayId,
    mapped_out: ArrayId,
    pinned_in: ArrayId,
    pinned_out: ArrayId,
    /// A device copy of the input.
    device_in: ArrayId,
    device_a: ArrayId,
    device_b: ArrayId,
}

impl ZeroCopyArrays {
    fn new(runner: &mut dyn MappedRunner, len: usize) -> Result<Self> {
        let source: Vec<f32> = pattern(len);
        let mapped_in = runner.array(Memory::Mapped, len)?;
        runner.write(mapped_in, &source)?;
        let mapped_out = runner.array(Memory::Mapped, len)?;
        let pinned_in = runner.array(Memory::Pinned, len)?;
        runner.write(pinned_in, &source)?;
        let pinned_out = runner.array(Memory::Pinned, len)?;
        let device_in = runner.array(Memory::Device, len)?;
        runner.write(device_in, &source)?;
        Ok(Self {
            source,
            mapped_in,
            mapped_out,
            pinned_in,
            pinned_out,
            device_in,
            device_a: runner.array(Memory::Device, len)?,
            device_b: runner.array(Memory::Device, len)?,
        })
    }

    /// The steps of one run of `case` over `n` floats, and the array that holds its result.
    fn steps(&self, case: Case, n: usize) -> (Vec<MappedStep>, ArrayId) {
        let kernel = |from, to| MappedStep::VectorCopy {
            implementation: Implementation::Rust,
            from,
            to,
            n: n as u64,
        };
        let copy = |from, to| MappedStep::Copy { from, to, n };
        match case {
            Case::KernelReadsMapped => (vec![kernel(self.mapped_in, self.device_a)], self.device_a),
            Case::KernelWritesMapped => (vec![kernel(self.device_in, self.mapped_out)], self.mapped_out),
            Case::PinnedUpload => (vec![copy(self.pinned_in, self.device_a)], self.device_a),
            Case::PinnedDownload => (vec![copy(self.device_in, self.pinned_out)], self.pinned_out),
            Case::ExplicitRoundTrip => (
                vec![
                    copy(self.pinned_in, self.device_a),
                    kernel(self.device_a, self.device_b),
                    copy(self.device_b, self.pinned_out),
                ],
                self.pinned_out,
            ),
            Case::ZeroCopyRoundTrip => (vec![kernel(self.mapped_in, self.mapped_out)], self.mapped_out),
        }
    }

    /// One case at `bytes`: the outputs reset, the case timed, its result checked against the input.
    fn measure(
        &self,
        runner: &mut dyn MappedRunner,
        ctx: &RunContext<'_>,
        case: Case,
        bytes: u64,
    ) -> Result<Option<Point>> {
        let n = (bytes / 4) as usize;
        runner.fill(self.mapped_out, n, -1.0)?;
        runner.fill(self.pinned_out, n, -1.0)?;
        runner.fill(self.device_a, n, -1.0)?;
        let (steps, result) = self.steps(case, n);
        let times = runner.time(&steps, ctx.settings)?;
        let failure = first_mismatch(&runner.read(result, n)?, &self.source[..n]);
        // One-way cases move the bytes once; round trips count the input and the output.
        let counted = match case {
            Case::ExplicitRoundTrip | Case::ZeroCopyRoundTrip => 2 * bytes,
            _ => bytes,
        };
        let at = PointKey::Value((bytes >> 20) as i64);
        Ok(Point::timed(
            at,
            &Metric::Bandwidth,
            Work::bytes(n as u64, counted),
            &times,
            failure,
        ))
    }
}

impl SectionHooks for ZeroCopy {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let Some(&at) = result.values().last() else {
            return Vec::new();
        };
        let series = |case: Case| {
            let (kernel, implementation, variant) = case.key();
            result.variant(kernel, implementation, variant)
        };
        let gbps = |case| series(case).and_then(|s| s.median_at(at));
        let ms = |case| series(case).and_then(|s| s.at(at)).and_then(|p| p.median_ms());
        let (Some(read), Some(write), Some(up), Some(down), Some(explicit), Some(zero)) = (
            gbps(Case::KernelReadsMapped),
            gbps(Case::KernelWritesMapped),
            gbps(Case::PinnedUpload),
            gbps(Case::PinnedDownload),
            ms(Case::ExplicitRoundTrip),
            ms(Case::ZeroCopyRoundTrip),
        ) else {
            return Vec::new();
        };
        vec![format!(
            "At {at} MiB a kernel reading mapped host memory gets {read:.1} GB/s and one writing it {write:.1} GB/s, \
             against {up:.1} / {down:.1} GB/s for pinned copies by the copy engines. End to end, zero copy takes \
             {zero:.3} ms where H2D + kernel + D2H take {explicit:.3} ms ({:.2}x): with data read and written once, \
             the link is the limit either way and zero copy overlaps the two directions.",
            explicit / zero
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        vec![Claim {
            id: "bpg-3.1.3-zero-copy",
            source: "Best Practices Guide §3.1.3",
            claim: "For data read and written once, a kernel on mapped (zero-copy) host memory beats explicit copies \
                    around the kernel"
                .into(),
            rule: Rule::Direction,
            reads: "at the largest size: the time of H2D + kernel + D2H over the time of one kernel on mapped memory"
                .into(),
            experiment: "zero-copy",
        }]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let Some(&at) = result.values().last() else {
            return Vec::new();
        };
        let point = |case: Case| {
            let (kernel, implementation, variant) = case.key();
            result.variant(kernel, implementation, variant)?.at(at)
        };
        let (Some(explicit), Some(zero)) = (point(Case::ExplicitRoundTrip), point(Case::ZeroCopyRoundTrip)) else {
            return Vec::new();
        };
        let (Some(factor), Some(e), Some(z)) = (slower_by(explicit, zero), explicit.median_ms(), zero.median_ms())
        else {
            return Vec::new();
        };
        vec![self.claims()[0].grade(
            factor,
            format!(
                "{at} MiB end to end: H2D + kernel + D2H {e:.2} ms, zero copy {z:.2} ms ({}x)",
                factor.text(2)
            ),
            result.device,
        )]
    }
}
