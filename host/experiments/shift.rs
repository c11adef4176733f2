//! Guide §3.2.4.1 (Listings 3.12–3.13, Figure 3.12): shifted reads through
//! global loads and through the texture path, beside `offset_copy`.

use super::copy_sweep::SECTOR_GBPS;
use super::copy_sweep::{BYTE_COUNTING, Planned, buffer_len, measure};
use super::counter_evidence::{evidence, sector_checks};
use super::sector_model;
use super::{Experiment, RunContext};
use crate::error::Result;
use crate::launchers::CopyKernel;
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, Metric, Report, Rule, SectionHooks, better_by};
use crate::report::{Bound, Series, Unit};
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
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        vec![Bound::headline(Unit::Dram), Bound::extra(SECTOR_GBPS, Unit::Dram)]
    }

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

    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim {
                id: "bpg-3.2.4.1-texture-shift",
                source: "Best Practices Guide §3.2.4.1, Figure 3.12",
                claim: "Reading shifted (misaligned) data through the texture path beats plain global loads".into(),
                rule: Rule::Direction,
                reads: "texture_shift_copy · Rust over shift_copy · Rust, GB/s at shift_copy's worst shift".into(),
                experiment: "shift",
            },
            Claim {
                id: "bpg-3.2.4.1-texture-unshifted",
                source: "Best Practices Guide §3.2.4.1, Figure 3.12",
                claim: "Textured reads keep the bandwidth of the unshifted, coalesced copy within a few percent at \
                        every shift"
                    .into(),
                rule: Rule::NoExtraCost {
                    holds_within: 1.05,
                    weaker_within: 1.5,
                },
                reads: "shift_copy · Rust at shift 0 over texture_shift_copy · Rust at its worst shift, GB/s".into(),
                experiment: "shift",
            },
        ]
    }

    fn ledger(&self, result: &ExperimentResult, report: &Report) -> Vec<LedgerRow> {
        let rust = |kernel| result.series_of(kernel, Implementation::Rust);
        let (Some(plain), Some(texture)) = (rust("shift_copy"), rust("texture_shift_copy")) else {
            return Vec::new();
        };
        let metric = &result.axis.metric;
        let claims = self.claims();
        let mut rows = Vec::new();
        if let Some(worst) = plain.worst(metric)
            && let Some(at) = worst.at.value()
            && let Some(tex_point) = texture.at(at)
            && let (Some(tex), Some(low), Some(factor)) =
                (tex_point.median(), worst.median(), better_by(metric, tex_point, worst))
        {
            rows.push(
                claims[0]
                    .grade(
                        factor,
                        format!(
                            "shift {at}: texture {tex:.0} GB/s, plain loads {low:.0} GB/s; {}x",
                            factor.text(2)
                        ),
                        result.device,
                    )
                    .with_counters(evidence(
                        sector_checks(plain, &[0, at], (sector_model::shift_copy_bytes, 4), "shift"),
                        result,
                        report,
                    )),
            );
        }
        if let (Some(unshifted), Some(tex_worst)) = (plain.at(0), texture.worst(metric))
            && let (Some(base), Some(tex), Some(cost)) = (
                unshifted.median(),
                tex_worst.median(),
                better_by(metric, unshifted, tex_worst),
            )
        {
            rows.push(claims[1].grade(
                cost,
                format!(
                    "plain loads at shift 0: {base:.0} GB/s; texture at its worst shift ({}): {tex:.0} GB/s; {}x",
                    tex_worst.at,
                    cost.text(3)
                ),
                result.device,
            ));
        }
        rows
    }
}
