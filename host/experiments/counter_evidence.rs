//! What the hardware counters say about a ledger row's model: the checks
//! the rows build from the counters their points stored, or why there are
//! none.

use super::counter_launch::COUNTERS_WAIVER;
use super::sector_model::SectorModel;
use crate::counters::Counted;
use crate::report::{CounterCheck, CounterEvidence, ExperimentResult, Point, Report, Series};

/// Why `result`'s points have no counters.
pub fn missing_reason(result: &ExperimentResult, report: &Report) -> String {
    if !report.settings.counters {
        return "not collected: run with --counters".into();
    }
    if let Some(waiver) = result.waived.iter().find(|w| w.what == COUNTERS_WAIVER) {
        return format!("waived: {}", waiver.reason);
    }
    "not collected at the points this row uses; see the section's notes".into()
}

/// The evidence of `checks` (`None` where a point has no counters): every
/// check, or why the counters are missing when any is.
pub fn evidence(checks: Vec<Option<CounterCheck>>, result: &ExperimentResult, report: &Report) -> CounterEvidence {
    match checks.into_iter().collect::<Option<Vec<_>>>() {
        Some(checks) if !checks.is_empty() => CounterEvidence::Checks(checks),
        _ => CounterEvidence::Missing(missing_reason(result, report)),
    }
}

/// The counters `point` stored.
pub fn counted(point: &Point) -> Option<Counted> {
    Counted::stored(&point.counters)
}

/// Device-memory bytes per launch: `modelled` against what the counters saw.
pub fn dram_check(point: &Point, modelled: f64, what: String) -> Option<CounterCheck> {
    Some(CounterCheck::new(what, modelled, counted(point)?.dram_bytes()?))
}

/// The sector model's DRAM bytes against the counted ones at each of `at`
/// (a copy of `elem_bytes`-byte elements; `parameter` names the axis).
pub fn sector_checks(
    series: &Series,
    at: &[i64],
    (model, elem_bytes): (SectorModel, u64),
    parameter: &str,
) -> Vec<Option<CounterCheck>> {
    at.iter()
        .map(|&x| {
            let point = series.at(x)?;
            let modelled = model(point.elements, i32::try_from(x).ok()?, elem_bytes) as f64;
            dram_check(point, modelled, format!("DRAM bytes per launch at {parameter} {x}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{dram_check, evidence, missing_reason};
    use crate::counters::HardwareCounter;
    use crate::experiments::counter_launch::COUNTERS_WAIVER;
    use crate::experiments::execution_fixtures::report;
    use crate::experiments::ledger_fixtures::{result, series};
    use crate::report::{CounterCheck, CounterEvidence, Metric, Waiver};
    use crate::testbed::Implementation;

    #[test]
    fn missing_counters_say_why() {
        let mut r = result("stride", Metric::Bandwidth, vec![]);
        let mut rep = report(vec![r.clone()]);
        assert_eq!(missing_reason(&r, &rep), "not collected: run with --counters");
        rep.settings.counters = true;
        assert!(missing_reason(&r, &rep).starts_with("not collected at the points"));
        r.waived.push(Waiver {
            what: COUNTERS_WAIVER.into(),
            reason: "no permission".into(),
        });
        assert_eq!(missing_reason(&r, &rep), "waived: no permission");
        assert_eq!(
            evidence(vec![Some(CounterCheck::new("x", 1.0, 1.0)), None], &r, &rep),
            CounterEvidence::Missing("waived: no permission".into()),
            "one missing check makes the evidence missing"
        );
        assert_eq!(
            evidence(vec![], &r, &rep),
            CounterEvidence::Missing("waived: no permission".into())
        );
    }

    #[test]
    fn dram_checks_read_the_stored_counters() {
        let mut s = series("stride_copy", Implementation::Rust, "f32", &[(2, 1000.0)], &[]);
        let point = &mut s.points[0];
        assert_eq!(dram_check(point, 64.0, "x".into()), None, "no counters");
        point
            .counters
            .insert(HardwareCounter::DramReadBytes.metric().into(), 40.0);
        point
            .counters
            .insert(HardwareCounter::DramWriteBytes.metric().into(), 30.0);
        assert_eq!(
            dram_check(point, 64.0, "DRAM bytes".into()),
            Some(CounterCheck::new("DRAM bytes", 64.0, 70.0))
        );
    }

    /// A stride_copy (Rust) point at `stride` over `threads` threads whose counters
    /// saw `factor` times the sector model's DRAM bytes (none for `factor` < 0).
    fn stride_point(series: &mut crate::report::Series, stride: i64, threads: u64, factor: f64) {
        let point = series.points.iter_mut().find(|p| p.at.value() == Some(stride)).unwrap();
        point.elements = threads;
        point.bytes = 8 * threads;
        if factor >= 0.0 {
            let modelled = crate::experiments::stride_copy_bytes(threads, stride as i32, 4) as f64;
            point
                .counters
                .insert(HardwareCounter::DramReadBytes.metric().into(), 0.5 * factor * modelled);
            point
                .counters
                .insert(HardwareCounter::DramWriteBytes.metric().into(), 0.5 * factor * modelled);
        }
    }

    fn stride_rows(factor_at_2: f64, counters: bool) -> Vec<crate::report::LedgerRow> {
        let mut s = series(
            "stride_copy",
            Implementation::Rust,
            "f32",
            &[(1, 2000.0), (2, 1000.0), (32, 125.0)],
            &[],
        );
        stride_point(&mut s, 1, 1 << 20, if counters { 1.02 } else { -1.0 });
        stride_point(&mut s, 2, 1 << 19, if counters { factor_at_2 } else { -1.0 });
        stride_point(&mut s, 32, 1 << 15, if counters { 0.97 } else { -1.0 });
        let mut rep = report(vec![result("stride", Metric::Bandwidth, vec![s])]);
        rep.settings.counters = counters;
        rep.compute_ledger(&crate::experiments::hooks)
    }

    #[test]
    fn copy_rows_state_the_counters_and_fail_on_a_disagreement() {
        use crate::report::Verdict;
        let rows = stride_rows(1.0, false);
        assert_eq!(rows.len(), 1, "no effective-vs-actual row without counters");
        assert!(
            rows[0]
                .measured
                .ends_with("; hardware counters: none (not collected: run with --counters)"),
            "{}",
            rows[0].measured
        );
        assert_eq!(rows[0].verdict, Verdict::Holds);

        let rows = stride_rows(1.05, true);
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["bpg-3.2.1.4-stride-2", "bpg-2.2.3-effective-vs-actual"]);
        assert_eq!(rows[0].verdict, Verdict::Holds);
        assert!(
            rows[0].measured.contains("hardware counters agree within 10%"),
            "{}",
            rows[0].measured
        );
        assert!(
            rows[0].measured.contains("at stride 2: modelled"),
            "{}",
            rows[0].measured
        );
        // Stride 32: 128 bytes a thread modelled (a 64-byte granule read, a sector filled and written),
        // 0.97 of it counted, over the 8 useful bytes.
        assert_eq!(rows[1].verdict, Verdict::Holds, "{:?}", rows[1]);
        assert!(rows[1].rule.contains("claimed 16.00"), "{}", rows[1].rule);
        assert!(
            rows[1].measured.contains("(15.52x; the sector model: 16.00x)"),
            "{}",
            rows[1].measured
        );
        assert!(
            rows[1]
                .measured
                .starts_with("Rust stride_copy at stride 32: effective 125 GB/s"),
            "{}",
            rows[1].measured
        );

        let rows = stride_rows(1.5, true);
        assert_eq!(rows[0].verdict, Verdict::Failed);
        assert!(
            rows[0].measured.contains("HARDWARE COUNTERS DISAGREE"),
            "{}",
            rows[0].measured
        );
        assert!(
            rows[0].check.as_deref().unwrap().contains("(+50.0%)"),
            "{:?}",
            rows[0].check
        );
    }

    #[test]
    fn bank_rows_check_the_counted_passes() {
        use crate::report::Verdict;
        let bank = |counted_at_32: f64| {
            let extras: Vec<(i64, &str, f64)> = [(0, 1.0), (1, 1.0), (2, 2.0), (32, 31.0)]
                .iter()
                .map(|&(x, c)| (x, "SM clk per warp request", c))
                .collect();
            let mut s = series(
                "bank_read_b32",
                Implementation::Rust,
                "",
                &[(0, 8000.0), (1, 8000.0), (2, 4000.0), (32, 8000.0 / 31.0)],
                &extras,
            );
            for p in &mut s.points {
                let stride = p.at.value().unwrap();
                let passes = match stride {
                    32 => counted_at_32,
                    2 => 2.0,
                    _ => 1.0,
                };
                p.counters
                    .insert(HardwareCounter::SharedLoadRequests.metric().into(), 1000.0);
                p.counters
                    .insert(HardwareCounter::SharedLoadWavefronts.metric().into(), 1000.0 * passes);
            }
            let mut rep = report(vec![result("bank-conflicts", Metric::Bandwidth, vec![s])]);
            rep.settings.counters = true;
            rep.compute_ledger(&crate::experiments::hooks)
        };
        let rows = bank(32.0);
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.verdict == Verdict::Holds), "{rows:?}");
        assert!(
            rows[0]
                .measured
                .contains("passes per request at stride 32: modelled 32, counted 32"),
            "{}",
            rows[0].measured
        );
        let rows = bank(16.0);
        assert_eq!(rows[0].verdict, Verdict::Failed, "half the modelled passes");
        assert_eq!(rows[1].verdict, Verdict::Holds, "the broadcast's points agree");
    }

    /// The ledger of `results` in a report that collected counters.
    fn counted_ledger(results: Vec<crate::report::ExperimentResult>) -> Vec<crate::report::LedgerRow> {
        let mut rep = report(results);
        rep.settings.counters = true;
        rep.compute_ledger(&crate::experiments::hooks)
    }

    #[test]
    fn execution_rows_check_their_instruction_inferences() {
        use crate::counters::{SASS_PER_ELEMENT, SASS_PER_WARP};
        use crate::experiments::execution_fixtures::series as exec_series;
        use crate::report::Verdict;
        // Loop counters: PTX 9 vs 5 per element (1.8x); SASS 7 vs 4 (1.75x) agrees, 7 vs 7 does not.
        let loops = |u32_sass: f64, unchecked_sass: f64| {
            let counter = |kernel: &str, ptx: f64, sass: f64| {
                exec_series(
                    kernel,
                    Implementation::Rust,
                    ("f32", ""),
                    &[(400, 1.0)],
                    &[
                        (400, "PTX instructions per element", ptx),
                        (400, SASS_PER_ELEMENT, sass),
                    ],
                )
            };
            let series = vec![
                counter("loop_counter_i32", 9.0, u32_sass),
                counter("loop_counter_u32", 9.0, u32_sass),
                counter("loop_counter_usize", 5.0, unchecked_sass),
                counter("loop_counter_i32_unchecked", 5.0, unchecked_sass),
            ];
            counted_ledger(vec![result("loop-counters", Metric::Bandwidth, series)])
        };
        let code_row = |rows: Vec<crate::report::LedgerRow>| {
            rows.into_iter()
                .find(|r| r.id == "bpg-6.3-signed-counter-instructions")
                .expect("the instructions row")
        };
        let row = code_row(loops(7.0, 4.0));
        assert!(row.measured.contains("counters agree"), "{}", row.measured);
        assert_eq!(code_row(loops(7.0, 7.0)).verdict, Verdict::Failed);

        // Divergence: warp instructions k times one path per lane, once per warp, the same split.
        let divergence = |lane_at_32: f64, short_split: f64| {
            let ks = [1i64, 2, 4, 8, 16, 32];
            let times: Vec<(i64, f64)> = ks.iter().map(|&k| (k, k as f64)).collect();
            let lane_sass: Vec<(i64, &str, f64)> = ks
                .iter()
                .map(|&k| (k, SASS_PER_WARP, if k == 32 { lane_at_32 } else { 100.0 * k as f64 }))
                .collect();
            let warp_sass: Vec<(i64, &str, f64)> = ks.iter().map(|&k| (k, SASS_PER_WARP, 100.0)).collect();
            let flat: Vec<(i64, f64)> = ks.iter().map(|&k| (k, 1.0)).collect();
            let short_extras = [
                (0, "PTX selp in the loop", 4.0),
                (0, "PTX predicated instructions in the loop (not branches)", 0.0),
                (0, "PTX branches in the loop besides its back edge", 0.0),
                (0, "PTX instructions in the loop", 20.0),
                (0, SASS_PER_WARP, 50.0),
                (1, SASS_PER_WARP, short_split),
            ];
            let series = vec![
                exec_series(
                    "divergent_lane_paths",
                    Implementation::Rust,
                    ("f32", ""),
                    &times,
                    &lane_sass,
                ),
                exec_series(
                    "uniform_warp_paths",
                    Implementation::Rust,
                    ("f32", ""),
                    &flat,
                    &warp_sass,
                ),
                exec_series(
                    "short_branch_predicated",
                    Implementation::Rust,
                    ("f32", ""),
                    &[(0, 1.0), (1, 1.0)],
                    &short_extras,
                ),
            ];
            counted_ledger(vec![result("divergence", Metric::Time, series)])
        };
        let rows = divergence(3200.0, 50.0);
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            ["bpg-6.1-divergent-paths", "bpg-6.1-warp-aligned", "bpg-6.2-predication"]
        );
        assert!(rows.iter().all(|r| r.verdict != Verdict::Failed), "{rows:?}");
        assert!(
            rows[0]
                .measured
                .contains("32 paths per lane over one: modelled 32, counted 32"),
            "{}",
            rows[0].measured
        );
        let rows = divergence(1600.0, 75.0);
        assert_eq!(rows[0].verdict, Verdict::Failed, "16x the instructions for 32 paths");
        assert_eq!(rows[1].verdict, Verdict::Holds);
        assert_eq!(
            rows[2].verdict,
            Verdict::Failed,
            "a split that costs 1.5x the instructions"
        );
    }

    #[test]
    fn the_local_memory_row_checks_the_bytes_it_models() {
        use crate::report::Verdict;
        let local = |counted_per_thread: f64| {
            let mut dynamic = series(
                "local_array_dynamic",
                Implementation::Rust,
                "",
                &[(2048, 50.0)],
                &[(2048, "x registers", 0.5), (2048, "local GB/s", 20000.0)],
            );
            let point = &mut dynamic.points[0];
            point.elements = 1000;
            point.bytes = 1000 * 33024;
            point.counters.insert(
                HardwareCounter::LocalLoadBytes.metric().into(),
                500.0 * counted_per_thread,
            );
            point.counters.insert(
                HardwareCounter::LocalStoreBytes.metric().into(),
                500.0 * counted_per_thread,
            );
            counted_ledger(vec![result(
                "local-memory",
                Metric::custom("u", "G/s", true),
                vec![dynamic],
            )])
        };
        let rows = local(33024.0);
        assert!(
            rows[0]
                .measured
                .contains("local-memory bytes per launch at 2048 threads/SM"),
            "{}",
            rows[0].measured
        );
        assert_ne!(rows[0].verdict, Verdict::Failed);
        assert_eq!(
            local(256.0)[0].verdict,
            Verdict::Failed,
            "the array kept in registers after all"
        );
    }

    #[test]
    fn the_bank_section_shows_the_counted_passes_beside_the_model() {
        let extras = [
            (1, "passes (model)", 1.0),
            (1, "shared wavefronts/request (counters)", 1.0),
            (1, "bank conflicts/request (counters)", 0.0),
            (32, "passes (model)", 32.0),
            (32, "shared wavefronts/request (counters)", 32.0),
            (32, "bank conflicts/request (counters)", 31.0),
            (32, "slow-down", 30.5),
        ];
        let reads = series(
            "bank_read_b32",
            Implementation::Rust,
            "",
            &[(1, 8000.0), (32, 250.0)],
            &extras,
        );
        let (markdown, _, _) =
            crate::experiments::ledger_fixtures::rendered(result("bank-conflicts", Metric::Bandwidth, vec![reads]));
        assert!(markdown.contains("**Hardware counters** (Rust; CUPTI"), "{markdown}");
        assert!(
            markdown.contains("| 4 bytes | 32 | 32 | 32.00 / 31.00 | 30.50 | — | — |"),
            "{markdown}"
        );
    }
}
