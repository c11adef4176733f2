//! Best Practices Guide §3.2.4 and Table 3.4: 2-D texture fetches. Warps
//! read one tile of 32 texels each (a 32×1 row strip, 8×4 and 4×8 blocks, a
//! 1×32 column walk) of an image several times the L2, through plain
//! read-only loads over a row-major buffer and through a 2-D texture over a
//! CUDA array; then the same fetch with Table 3.4's features (linear
//! filtering, normalized coordinates, wrap addressing) against a plain
//! point-sampled, unnormalized, clamped one.

use super::sweep::each_point;
use super::{Experiment, RunContext};
use crate::error::{Error, Result};
use crate::launchers::{Image2d, SamplePlacement, Sampling, Texture2dRunner, TileFetch, texture_2d_runners};
use crate::reference::{FILTER_ERROR_BOUND, FILTER_ROUNDING, texture_fetch_2d, tile_order};
use crate::report::{
    Axis, Claim, ExperimentResult, LedgerRow, Metric, Point, PointKey, Report, Rule, SectionHooks, Series, Spread,
    Verdict, Waiver, Work, better_by,
};
use crate::stats::Summary;
use crate::testbed::{DeviceUnderTest, Implementation};

pub struct Texture2dFetches;

/// Warp tile widths (texels; the tile is `32 / width` rows high).
const TILE_WIDTHS: [u32; 4] = [32, 8, 4, 1];
/// The tile every ledger row reads, fixed before the run: an 8×4 block.
const GRADED_TILE: i64 = 8;
/// Where the Table 3.4 fetches sample, in texels past each thread's texel:
/// 17 and 9 texels further (so the last columns and rows fall off the image
/// and the addressing mode decides), at a fraction of .3 past the texel
/// centre (so the filter's weights are not exact in 8 bits).
const SHIFT: (f32, f32) = (17.8, 9.8);
/// Threads checked against the CPU reference: every this many (coprime with
/// the tile sizes, so every lane and tile position is checked).
const CHECK_STRIDE: usize = 3;
/// Useful bytes a texel: its 4-byte read and its thread's 4-byte write.
const BYTES_PER_TEXEL: u64 = 8;

const GLOBAL: &str = "global_2d_tile_load";
const TEXTURE: &str = "texture_2d_tile_sample";
/// The extra figure of the filtered points: the largest error against exact
/// bilinear interpolation, in 1/256 of the four texels' span.
pub const FILTER_ERROR: &str = "max filter error (1/256 of span)";

const BYTE_COUNTING: &str = "useful bytes: 4 read and 4 written per texel (one thread a texel); the caches' and the \
    texture unit's own traffic is not counted";

/// One series: plain loads (`sampling: None`), or the texture sampled as
/// `sampling` says, at the texel centres or `shifted` by [`SHIFT`].
#[derive(Clone, Copy)]
struct Case {
    variant: &'static str,
    sampling: Option<Sampling>,
    shifted: bool,
}

/// Plain loads; the point-sampled texture at the texel centres (the locality
/// pair); then Table 3.4's fetches, shifted by [`SHIFT`].
const CASES: [Case; 6] = {
    const POINT: Sampling = Sampling::POINT;
    let normalized = Sampling {
        normalized: true,
        ..POINT
    };
    [
        Case {
            variant: "",
            sampling: None,
            shifted: false,
        },
        Case {
            variant: "point",
            sampling: Some(POINT),
            shifted: false,
        },
        Case {
            variant: "point, shifted",
            sampling: Some(POINT),
            shifted: true,
        },
        Case {
            variant: "linear, shifted",
            sampling: Some(Sampling { linear: true, ..POINT }),
            shifted: true,
        },
        Case {
            variant: "normalized, shifted",
            sampling: Some(normalized),
            shifted: true,
        },
        Case {
            variant: "normalized wrap, shifted",
            sampling: Some(Sampling {
                wrap: true,
                ..normalized
            }),
            shifted: true,
        },
    ]
};

impl Case {
    fn kernel(self) -> &'static str {
        if self.sampling.is_some() { TEXTURE } else { GLOBAL }
    }

    fn placement(self, image: Image2d) -> SamplePlacement {
        match self.sampling.filter(|_| self.shifted) {
            Some(sampling) => SamplePlacement {
                offset: SHIFT,
                scale: match sampling.normalized {
                    true => (1.0 / image.width as f32, 1.0 / image.height as f32),
                    false => (1.0, 1.0),
                },
            },
            _ => SamplePlacement {
                offset: (0.5, 0.5),
                scale: (1.0, 1.0),
            },
        }
    }

    /// What the runners launch for this case over `image`.
    fn fetch(self, image: Image2d) -> TileFetch {
        TileFetch {
            sampling: self.sampling,
            placement: self.placement(image),
        }
    }
}

/// The samplings of the texture cases: the runners load a texture for each.
fn samplings() -> Vec<Sampling> {
    CASES.iter().filter_map(|case| case.sampling).collect()
}

/// The image: the smallest square of a power-of-two side (at least 1024)
/// with four times the L2's bytes, at most 16384 a side (1 GiB).
fn image_for(l2_bytes: u64) -> Image2d {
    let mut side = 1024u32;
    while (side as u64).pow(2) * 4 < 4 * l2_bytes && side < 16384 {
        side *= 2;
    }
    Image2d {
        width: side,
        height: side,
    }
}

/// Texel values: `k / 65536` for a hash `k` of the position, exact in `f32`, in `[0, 1)`.
fn test_image(image: Image2d) -> Vec<f32> {
    (0..image.texels())
        .map(|i| ((i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as f32) / 65536.0)
        .collect()
}

impl Experiment for Texture2dFetches {
    fn name(&self) -> &'static str {
        "texture-2d"
    }
    fn title(&self) -> &'static str {
        "2-D texture fetches: warp tile shape, filtering, normalized coordinates, addressing"
    }
    fn source(&self) -> &'static str {
        "CUDA C Best Practices Guide 4.0, §3.2.4 and §3.2.4.2, Table 3.4"
    }
    fn points(&self) -> u64 {
        TILE_WIDTHS.len() as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("warp tile width (texels; 32 / width rows)", Metric::Bandwidth);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let (mut runners, waived) = texture_2d_runners(ctx.device)?;
        result.waived.extend(
            waived
                .into_iter()
                .map(|(implementation, reason)| Waiver::of_twins(implementation, reason)),
        );
        let image = image_for(ctx.device.info().l2_cache_bytes.max(0) as u64);
        let texels = test_image(image);
        for runner in &mut runners {
            runner.load(&texels, image, &samplings())?;
        }
        let mut plans = Vec::new();
        for case in CASES {
            for (at, runner) in runners.iter().enumerate() {
                for implementation in runner.implementations() {
                    let key = ctx.key(case.kernel(), implementation, "f32").variant(case.variant);
                    result.series.push(Series::of(key));
                    plans.push((case, at, implementation, result.series.len() - 1));
                }
            }
        }
        each_point(ctx, TILE_WIDTHS, (0, TILE_WIDTHS.len()), |tile| {
            for &(case, at, implementation, index) in &plans {
                let series = &mut result.series[index];
                ctx.progress.set_message(format!("{} tile {tile}", series.label));
                let runner = runners[at].as_mut();
                let point = measure(ctx, runner, (case, implementation), (&texels, image, tile))?;
                series.points.extend(point);
            }
            Ok(())
        })?;
        describe(&mut result, image);
        Ok(result)
    }
}

/// One case by one implementation at one tile width: timed, checked against
/// the CPU reference (a failed check fails the point), the filter's error beside it.
fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn Texture2dRunner,
    (case, implementation): (Case, Implementation),
    (texels, image, tile): (&[f32], Image2d, u32),
) -> Result<Option<Point>> {
    // NaN first: a kernel that wrote nothing would otherwise pass on the previous case's outputs.
    runner.clear_output()?;
    let times_ms = runner.time(implementation, case.fetch(image), tile, ctx.settings)?;
    let check = check_samples(case, texels, (image, tile), &runner.read_output()?);
    let bytes = BYTES_PER_TEXEL * image.texels();
    let samples: Vec<f64> = times_ms.iter().map(|ms| bytes as f64 / 1e9 / (ms / 1e3)).collect();
    let work = Work::bytes(image.texels(), bytes);
    let at = PointKey::Value(tile as i64);
    let Some(mut point) = Point::measured(at, &samples, work, check.as_ref().err().cloned()) else {
        return Ok(None);
    };
    point.time_ms = Summary::of(&times_ms);
    if let Ok(Some(error)) = check {
        point.set_extra(FILTER_ERROR, error * 256.0);
    }
    Ok(Some(point))
}

/// Checks every [`CHECK_STRIDE`]th thread's output against the CPU
/// reference: bit for bit for plain loads and point sampling; within
/// [`FILTER_ERROR_BOUND`] of the four texels' span (plus
/// [`FILTER_ROUNDING`]) for linear filtering, whose largest error (in units
/// of the span) it returns.
fn check_samples(
    case: Case,
    texels: &[f32],
    (image, tile): (Image2d, u32),
    got: &[f32],
) -> Result<Option<f64>, String> {
    let size = (image.width as usize, image.height as usize);
    let placement = case.placement(image);
    let (offset, scale) = (placement.offset, placement.scale);
    let mut worst: Option<f64> = None;
    for (t, x, y) in tile_order(image.width, image.height, tile).step_by(CHECK_STRIDE) {
        let value = got[t as usize];
        let Some(sampling) = case.sampling else {
            let expected = texels[y as usize * size.0 + x as usize];
            if value.to_bits() != expected.to_bits() {
                return Err(format!(
                    "thread {t} read {value} at ({x}, {y}), the image holds {expected}"
                ));
            }
            continue;
        };
        // The kernel's own f32 arithmetic for the coordinates.
        let u = (x as f32 + offset.0) * scale.0;
        let v = (y as f32 + offset.1) * scale.1;
        let (expected, span) = texture_fetch_2d(texels, size, sampling, u as f64, v as f64);
        if !sampling.linear {
            if value.to_bits() != (expected as f32).to_bits() {
                return Err(format!(
                    "thread {t} sampled {value} at ({u}, {v}), the reference {expected}"
                ));
            }
            continue;
        }
        let error = (value as f64 - expected).abs();
        if error.is_nan() || error > FILTER_ERROR_BOUND * span + FILTER_ROUNDING {
            return Err(format!(
                "thread {t} filtered {value} at ({u}, {v}), exact {expected}: off by {error:e}, over 2/256 of the \
                 texels' span {span}"
            ));
        }
        if span > 0.0 {
            worst = Some(worst.unwrap_or(0.0).max(error / span));
        }
    }
    Ok(worst)
}

/// The setup and notes: the image, the tiles, the sampling positions, the check.
fn describe(result: &mut ExperimentResult, image: Image2d) {
    let Image2d { width, height } = image;
    result.setup.push(format!(
        "a {width} x {height} f32 image ({} MiB), once as a row-major buffer and once as a CUDA array (block-linear) \
         under 2-D texture objects; 256 threads per block, one thread a texel, each warp one tile of 32 texels \
         (x: the tile's width)",
        (image.texels() * 4) >> 20
    ));
    result.notes.push(format!(
        "global_2d_tile_load: ld.global.nc over the row-major buffer. texture_2d_tile_sample · point: the same \
         texels through a point-sampled, unnormalized, clamped texture at their centres. The shifted variants \
         sample ({}, {}) texels past each texel (the addressing mode decides at the edges; the filter's weights \
         are not exact in 8 bits); normalized coordinates divide by the size; wrap needs normalized coordinates \
         (the guide's caveat), so it is compared with the normalized clamped fetch. Every {CHECK_STRIDE}rd \
         thread checked: bit for bit against the CPU's fetch, within 2/256 of the four texels' span for linear \
         filtering ({FILTER_ERROR}: its largest error)",
        SHIFT.0, SHIFT.1
    ));
}

/// The Rust series of `variant` ("" for the plain loads).
fn rust<'r>(result: &'r ExperimentResult, variant: &str) -> Option<&'r Series> {
    let kernel = if variant.is_empty() { GLOBAL } else { TEXTURE };
    result.variant(kernel, Implementation::Rust, variant)
}

/// The rule of the filter's precision: the largest error, in 1/256 of the
/// texels' span, against what 8-bit fractional weights give.
pub const FILTER_PRECISION_RULE: &str = "the largest error of the filtered fetch against exact bilinear \
    interpolation, in 1/256 of the four texels' span (every point within 2 by its check): holds from 0.1 (errors \
    of the order of 8-bit weights: low precision), gone under 0.01 (interpolation as exact as f32), weaker between";

/// The verdict on "filtering is low-precision" from the largest error in 1/256 of the span.
pub fn filter_precision_verdict(error_256ths: f64) -> Verdict {
    if !error_256ths.is_finite() {
        Verdict::Failed
    } else if error_256ths >= 0.1 {
        Verdict::Holds
    } else if error_256ths >= 0.01 {
        Verdict::Weaker
    } else {
        Verdict::Gone
    }
}

const COSTS_LITTLE: Rule = Rule::NoExtraCost {
    holds_within: 1.10,
    weaker_within: 1.5,
};

fn claim(id: &'static str, claim: &str, rule: Rule, reads: &str) -> Claim {
    Claim {
        id,
        source: if id.starts_with("bpg-3.2.4.2") {
            "Best Practices Guide §3.2.4.2, Table 3.4"
        } else {
            "Best Practices Guide §3.2.4"
        },
        claim: claim.into(),
        rule,
        reads: reads.into(),
        experiment: "texture-2d",
    }
}

/// The claims, in the order [`ledger_rows`] grades them.
pub fn claims() -> Vec<Claim> {
    vec![
        claim(
            "bpg-3.2.4-texture-2d-vs-global",
            "The texture cache is optimized for 2-D locality: warps reading a 2-D block of texels read faster \
             through a texture than with plain global loads",
            Rule::Direction,
            "texture_2d_tile_sample · Rust, point, over global_2d_tile_load · Rust, GB/s, 8×4 warp tiles",
        ),
        claim(
            "bpg-3.2.4-texture-2d-locality",
            "Through a texture, warps whose texels are close together in 2-D (8×4 or 4×8 blocks, a 1×32 column) \
             read as fast as warps reading a 32×1 row strip",
            COSTS_LITTLE,
            "texture_2d_tile_sample · Rust, point: GB/s at the 32×1 row strip over the slowest of the 8×4, 4×8 and \
             1×32 tiles",
        ),
        claim(
            "bpg-3.2.4.2-filtering-cost",
            "Linear filtering is fast: interpolating between texels costs little beside a point-sampled fetch",
            COSTS_LITTLE,
            "texture_2d_tile_sample · Rust: point, shifted over linear, shifted, GB/s, 8×4 warp tiles",
        ),
        claim(
            "bpg-3.2.4.2-filtering-precision",
            "Linear filtering is low-precision interpolation (9-bit fixed-point weights, 8 fractional bits)",
            Rule::Stated(FILTER_PRECISION_RULE),
            "texture_2d_tile_sample · Rust, linear, shifted: the largest error at any tile, in 1/256 of the span",
        ),
        claim(
            "bpg-3.2.4.2-normalized-cost",
            "Normalized texture coordinates cost little beside unnormalized ones",
            COSTS_LITTLE,
            "texture_2d_tile_sample · Rust: point, shifted over normalized, shifted, GB/s, 8×4 warp tiles",
        ),
        claim(
            "bpg-3.2.4.2-wrap-cost",
            "Wrap addressing handles the boundary automatically at little cost beside clamp",
            COSTS_LITTLE,
            "texture_2d_tile_sample · Rust: normalized, shifted (clamp) over normalized wrap, shifted, GB/s, 8×4 \
             warp tiles",
        ),
    ]
}

/// The ledger rows of a texture-2d result (pure: tested on synthetic results).
pub fn ledger_rows(result: &ExperimentResult) -> Vec<LedgerRow> {
    let claims = claims();
    let metric = &result.axis.metric;
    let at = |variant: &str, x: i64| rust(result, variant).and_then(|s| s.at(x));
    let mut rows = Vec::new();
    // Figure: a's GB/s over b's at the graded tile, with the row's words.
    let ratio = |claim: &Claim, (a, b): (&str, &str), label: (&str, &str)| {
        let (pa, pb) = (at(a, GRADED_TILE)?, at(b, GRADED_TILE)?);
        let (va, vb, factor) = (pa.median()?, pb.median()?, better_by(metric, pa, pb)?);
        let text = format!(
            "8×4 tiles: {} {va:.0} GB/s, {} {vb:.0} GB/s; {}x",
            label.0,
            label.1,
            factor.text(2)
        );
        Some(claim.grade(factor, text, result.device))
    };
    rows.extend(ratio(&claims[0], ("point", ""), ("texture", "plain loads")));
    let texture_2d_row = rust(result, "point").and_then(|point| {
        let strip = point.at(32)?;
        let slowest = [8, 4, 1].iter().filter_map(|&x| point.at(x)).min_by(|a, b| {
            a.median()
                .unwrap_or(f64::NAN)
                .total_cmp(&b.median().unwrap_or(f64::NAN))
        })?;
        let factor = better_by(metric, strip, slowest)?;
        let text = format!(
            "texture: 32×1 strip {:.0} GB/s, slowest 2-D tile ({} wide) {:.0} GB/s; {}x",
            strip.median()?,
            slowest.at,
            slowest.median()?,
            factor.text(2)
        );
        Some(claims[1].grade(factor, text, result.device))
    });
    rows.extend(texture_2d_row);
    rows.extend(ratio(
        &claims[2],
        ("point, shifted", "linear, shifted"),
        ("point", "linear"),
    ));
    let filter_error = rust(result, "linear, shifted").and_then(|s| {
        s.points
            .iter()
            .filter(|p| p.status.is_ok())
            .filter_map(|p| p.extra.get(FILTER_ERROR).copied())
            .reduce(f64::max)
    });
    if let Some(error) = filter_error {
        rows.push(claims[3].grade_many(
            &[Spread::exact(error)],
            |v| filter_precision_verdict(v[0]),
            format!(
                "largest error {error:.2}/256 of the four texels' span (8-bit weights: under 1 rounded, 2 truncated)"
            ),
            result.device,
        ));
    }
    rows.extend(ratio(
        &claims[4],
        ("point, shifted", "normalized, shifted"),
        ("unnormalized", "normalized"),
    ));
    rows.extend(ratio(
        &claims[5],
        ("normalized, shifted", "normalized wrap, shifted"),
        ("clamp", "wrap"),
    ));
    rows
}

impl SectionHooks for Texture2dFetches {
    fn narrative(&self, result: &ExperimentResult, _report: &Report) -> Vec<String> {
        let median = |variant: &str, x: i64| rust(result, variant).and_then(|s| s.median_at(x));
        let (Some(strip), Some(column), Some(tex_strip), Some(tex_column)) =
            (median("", 32), median("", 1), median("point", 32), median("point", 1))
        else {
            return Vec::new();
        };
        vec![format!(
            "**Then vs now.** Plain loads over the row-major image: {strip:.0} GB/s for 32×1 row strips, \
             {column:.0} GB/s for 1×32 column walks; through the texture over the CUDA array: {tex_strip:.0} and \
             {tex_column:.0} GB/s. The guide's texture cache was a separate, 2-D-tiled cache beside uncached global \
             loads (cc 1.x); since Maxwell texture fetches and global loads share the L1, and what remains of the \
             2-D advantage is the CUDA array's block-linear layout."
        )]
    }

    fn claims(&self) -> Vec<Claim> {
        claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        ledger_rows(result)
    }
}

/// `selftest`'s check of the two tile kernels: every case of the experiment
/// on a small image (64 × 64), at a row strip, a block and a column walk,
/// by each implementation the device runs, against the CPU reference.
pub fn check_tile_kernels(dut: &DeviceUnderTest) -> Result<()> {
    let image = Image2d { width: 64, height: 64 };
    let texels = test_image(image);
    let (mut runners, _) = texture_2d_runners(dut)?;
    for runner in &mut runners {
        runner.load(&texels, image, &samplings())?;
    }
    for case in CASES {
        for runner in &mut runners {
            for implementation in runner.implementations() {
                for tile in [32, 8, 1] {
                    runner.clear_output()?;
                    runner.fetch_once(implementation, case.fetch(image), tile)?;
                    check_samples(case, &texels, (image, tile), &runner.read_output()?).map_err(|detail| {
                        Error::Verification {
                            what: format!(
                                "{} {} · {} tile {tile}",
                                case.kernel(),
                                case.variant,
                                implementation.label()
                            ),
                            detail,
                        }
                    })?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::ledger_fixtures::{result, series};
    use super::*;

    fn texture(variant: &str, points: &[(i64, f64)], extras: &[(i64, &str, f64)]) -> Series {
        series(TEXTURE, Implementation::Rust, variant, points, extras)
    }

    fn synthetic() -> ExperimentResult {
        let tiles = |v: [f64; 4]| [(32, v[0]), (8, v[1]), (4, v[2]), (1, v[3])];
        result(
            "texture-2d",
            Metric::Bandwidth,
            vec![
                series(
                    GLOBAL,
                    Implementation::Rust,
                    "",
                    &tiles([3000.0, 2900.0, 2800.0, 900.0]),
                    &[],
                ),
                texture("point", &tiles([2900.0, 2950.0, 2900.0, 2000.0]), &[]),
                texture("point, shifted", &tiles([2800.0, 2800.0, 2800.0, 1900.0]), &[]),
                texture(
                    "linear, shifted",
                    &tiles([2000.0, 2000.0, 2000.0, 1500.0]),
                    &[(8, FILTER_ERROR, 0.8)],
                ),
                texture("normalized, shifted", &tiles([2800.0, 2750.0, 2800.0, 1900.0]), &[]),
                texture(
                    "normalized wrap, shifted",
                    &tiles([2800.0, 2600.0, 2800.0, 1900.0]),
                    &[],
                ),
            ],
        )
    }

    #[test]
    fn every_claim_gets_its_row_from_the_graded_tile() {
        let rows = ledger_rows(&synthetic());
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        let expected: Vec<&str> = claims().iter().map(|c| c.id).collect();
        assert_eq!(ids, expected);
        let verdicts: Vec<Verdict> = rows.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Gone,   // 2950 / 2900: no faster than plain loads
                Verdict::Weaker, // 2900 / 2000 at the column walk: 1.45
                Verdict::Weaker, // 2800 / 2000: 1.4
                Verdict::Holds,  // 0.8/256 of the span
                Verdict::Holds,  // 2800 / 2750
                Verdict::Holds,  // 2750 / 2600: 1.06
            ]
        );
        assert!(
            rows[0].measured.contains("texture 2950 GB/s, plain loads 2900 GB/s"),
            "{}",
            rows[0].measured
        );
        assert!(
            rows[1].measured.contains("slowest 2-D tile (1 wide) 2000 GB/s"),
            "{}",
            rows[1].measured
        );
    }

    #[test]
    fn the_section_renders_its_narrative_plot_and_rows() {
        let (markdown, files, rows) = super::super::ledger_fixtures::rendered(synthetic());
        assert!(
            markdown.contains("3000 GB/s for 32×1 row strips, 900 GB/s for 1×32 column walks"),
            "{markdown}"
        );
        assert!(markdown.contains("2900 and 2000 GB/s"), "{markdown}");
        assert!(files.contains(&"texture-2d.svg".to_string()), "{files:?}");
        assert_eq!(rows.len(), 6);
    }

    #[test]
    fn missing_series_give_no_rows_and_the_precision_rule_has_edges() {
        let empty = result("texture-2d", Metric::Bandwidth, Vec::new());
        assert!(ledger_rows(&empty).is_empty());
        assert_eq!(filter_precision_verdict(0.1), Verdict::Holds);
        assert_eq!(filter_precision_verdict(0.099), Verdict::Weaker);
        assert_eq!(filter_precision_verdict(0.01), Verdict::Weaker);
        assert_eq!(filter_precision_verdict(0.0), Verdict::Gone);
        assert_eq!(filter_precision_verdict(f64::NAN), Verdict::Failed);
    }

    #[test]
    fn the_image_is_four_l2s_of_a_power_of_two_side() {
        assert_eq!(
            image_for(50 << 20),
            Image2d {
                width: 8192,
                height: 8192
            }
        );
        assert_eq!(
            image_for(0),
            Image2d {
                width: 1024,
                height: 1024
            }
        );
        assert_eq!(
            image_for(1 << 40),
            Image2d {
                width: 16384,
                height: 16384
            }
        );
        let texels = test_image(Image2d {
            width: 1024,
            height: 1024,
        });
        assert!(
            texels
                .iter()
                .all(|&t| (0.0..1.0).contains(&t) && (t * 65536.0).fract() == 0.0)
        );
    }

    #[test]
    fn the_check_fails_a_wrong_texel_and_measures_the_filter_error() {
        let image = Image2d { width: 32, height: 32 };
        let texels = test_image(image);
        let global = CASES[0];
        let mut got = vec![0.0f32; 1024];
        for (t, x, y) in tile_order(32, 32, 8) {
            got[t as usize] = texels[(y * 32 + x) as usize];
        }
        assert_eq!(check_samples(global, &texels, (image, 8), &got), Ok(None));
        got[3] += 1.0;
        assert!(
            check_samples(global, &texels, (image, 8), &got).is_err(),
            "thread 3 is checked"
        );
        // An exact filter passes with error 0; one off by 1/256 of the span in weights fails past 2/256.
        let linear = CASES[3];
        let sampling = linear.sampling.expect("a texture case");
        let placement = linear.placement(image);
        let mut filtered = vec![0.0f32; 1024];
        for (t, x, y) in tile_order(32, 32, 8) {
            let u = (x as f32 + placement.offset.0) * placement.scale.0;
            let v = (y as f32 + placement.offset.1) * placement.scale.1;
            filtered[t as usize] = texture_fetch_2d(&texels, (32, 32), sampling, u as f64, v as f64).0 as f32;
        }
        let error = check_samples(linear, &texels, (image, 8), &filtered).expect("exact values pass");
        assert!(error.expect("some spans") < 1e-5);
        filtered[0] += 0.5;
        assert!(check_samples(linear, &texels, (image, 8), &filtered).is_err());
    }
}
