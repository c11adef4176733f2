//! Guide §3.2.4.1 (Listings 3.12–3.13, Figure 3.12): shifted reads through
//! global loads and through the texture path, beside `offset_copy`.

use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, ExperimentResult, LedgerRow, Metric, Report, SectionHooks};
use crate::testbed::Implementation;

pub struct Shift;

impl Experiment for Shift {
    fn name(&self) -> &'static str {
        "shift"
    }
    fn title(&self) -> &'static str {
        "Shifted reads: global loads vs texture fetches"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.4.1, Listings 3.12 and 3.13, Figure 3.12"
    }
    fn points(&self) -> u64 {
        CopyKernel::Shift.sweep().len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let mut result = ctx.result(self, Axis::lines("shift (elements)", Metric::Bandwidth), BYTE_COUNTING);
        let room = CopyKernel::Shift.room();
        let mut len = buffer_len::<f32>(ctx, room);
        // A 1-D linear texture has a hardware size limit (2^27 texels today): cap the buffers to it.
        let max_texels = ctx.device.info().max_texture_1d_linear_texels.max(0) as usize;
        if max_texels > room && len > max_texels {
            len = ((max_texels - room) * 4) >> 20 << 20 >> 2;
            len += room;
            result.notes.push(format!(
                "buffers capped at {} MiB: a 1-D linear texture holds at most {max_texels} texels on this GPU",
                (len * 4) >> 20
            ));
        }
        result.setup.push(format!(
            "buffers of {} MiB each, 256 threads per block",
            (len * 4) >> 20
        ));
        let plan = [
            Planned::all(CopyKernel::Shift),
            Planned::all(CopyKernel::TextureShift),
            Planned::rust(CopyKernel::Offset),
        ];
        let model = sector_model::shift_copy_bytes;
        measure::<f32>(ctx, &mut result, &plan, CopyKernel::Shift.sweep(), len, Some(model))?;
        Ok(result)
    }
}

impl SectionHooks for Shift {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let rust = |kernel| result.series_of(kernel, Implementation::Rust);
        let (Some(plain), Some(texture)) = (rust("shift_copy"), rust("texture_shift_copy")) else {
            return Vec::new();
        };
        let (Some(worst), Some(base)) = (plain.worst(&result.axis.metric), plain.median_at(0)) else {
            return Vec::new();
        };
        let (Some(at), Some(low)) = (worst.at.value(), worst.median()) else {
            return Vec::new();
        };
        let Some(tex_at) = texture.median_at(at) else {
            return Vec::new();
        };
        let mut text = format!(
            "**Then vs now.** At its worst shift ({at}) the plain shifted read runs at {low:.1} GB/s ({:.1}% below \
             shift 0, {base:.1} GB/s); the texture path gives {tex_at:.1} GB/s there ({:+.1}% vs plain loads).",
            100.0 * (1.0 - low / base),
            100.0 * (tex_at / low - 1.0)
        );
        if let Some(offset) = rust("offset_copy").and_then(|s| s.median_at(at)) {
            text.push_str(&format!(
                " offset_copy, with misaligned reads and writes, gives {offset:.1} GB/s."
            ));
        }
        text.push_str(
            " On cc 1.x the texture path was the cure for misaligned reads; since Maxwell textures and L1 share one \
             cache, so it buys nothing.",
        );
        vec![text]
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        let rust = |kernel| result.series_of(kernel, Implementation::Rust);
        let (Some(plain), Some(texture)) = (rust("shift_copy"), rust("texture_shift_copy")) else {
            return Vec::new();
        };
        let Some(worst) = plain.worst(&result.axis.metric) else {
            return Vec::new();
        };
        let (Some(at), Some(low)) = (worst.at.value(), worst.median()) else {
            return Vec::new();
        };
        let Some(tex) = texture.median_at(at) else {
            return Vec::new();
        };
        vec![LedgerRow::factor(
            "bpg-3.2.4.1-texture-shift",
            "Best Practices Guide §3.2.4.1",
            "Reading shifted (misaligned) data through the texture path beats plain global loads (graded against \
             the 1.7x misalignment cost it removed on the GTX 280)",
            120.0 / 70.0,
            tex / low,
            format!("shift {at}: texture {tex:.0} GB/s, plain loads {low:.0} GB/s"),
            &result.name,
            result.device,
        )]
    }
}
