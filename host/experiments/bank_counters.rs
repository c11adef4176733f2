//! The hardware counters of the `bank-conflicts` experiment (`--counters`):
//! the shared-memory wavefronts (passes through the banks) and bank
//! conflicts the GPU counted per warp request, beside the model's passes
//! and the timed slow-down, and the check of the ledger rows' passes.

use std::fmt::Write;

use super::bank_conflicts::{PASSES, SLOW_DOWN, model_passes};
use super::counter_evidence::{counted, evidence};
use crate::counters::{CONFLICTS_PER_REQUEST, Counted, SharedAccess, WAVEFRONTS_PER_REQUEST};
use crate::launchers::{BankAccess, BankKernel};
use crate::report::{CounterCheck, ExperimentResult, LedgerRow, Point, Report, Series};
use crate::testbed::Implementation;

/// Which shared-memory accesses of `kernel` the counters judge: the write kernels' stores, else loads.
pub fn shared_access(kernel: BankKernel) -> SharedAccess {
    match kernel {
        BankKernel::StridedWrite(_) => SharedAccess::Store,
        _ => SharedAccess::Load,
    }
}

/// Puts the counted wavefronts and conflicts per request of `kernel` on `point`.
pub fn record(point: &mut Point, counted: Option<&Counted>, kernel: BankKernel) {
    let Some(counted) = counted else {
        return;
    };
    let access = shared_access(kernel);
    if let Some(w) = counted.wavefronts_per_request(access) {
        point.set_extra(WAVEFRONTS_PER_REQUEST, w);
    }
    if let Some(c) = counted.conflicts_per_request(access) {
        point.set_extra(CONFLICTS_PER_REQUEST, c);
    }
}

fn figure(series: Option<&Series>, at: i64, name: &str) -> Option<f64> {
    series?.at(at)?.extra.get(name).copied()
}

fn cell(value: Option<f64>) -> String {
    value.map_or_else(|| "—".into(), |v| format!("{v:.2}"))
}

/// "32.00 / 31.00": the counted wavefronts and bank conflicts per request at `at`.
fn counted_cell(series: Option<&Series>, at: i64) -> String {
    match (
        figure(series, at, WAVEFRONTS_PER_REQUEST),
        figure(series, at, CONFLICTS_PER_REQUEST),
    ) {
        (Some(w), c) => format!("{w:.2} / {}", cell(c)),
        _ => "—".into(),
    }
}

/// The counters' tables (Rust), where the run collected them: per access width
/// and for the tile, the model's passes, the counted wavefronts / conflicts per
/// request and the timed slow-down.
pub fn table(result: &ExperimentResult) -> String {
    let mut out = String::new();
    let counted_any = result
        .series
        .iter()
        .any(|s| s.points.iter().any(|p| p.extra.contains_key(WAVEFRONTS_PER_REQUEST)));
    if !counted_any {
        return out;
    }
    let rust = |kernel: BankKernel| result.series_of(kernel.kernel(), Implementation::Rust);
    let _ = writeln!(
        out,
        "\n**Hardware counters** (Rust; CUPTI, one more launch of each point): shared-memory wavefronts (passes \
         through the banks) and bank conflicts the GPU counted per warp request, beside the model's passes and the \
         timed slow-down\n"
    );
    let _ = writeln!(
        out,
        "| width | stride (pitch) | passes (model) | read: wavefronts / conflicts per request | read slow-down | \
         write: wavefronts / conflicts per request | write slow-down |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for access in BankAccess::ALL {
        let (read, write) = (
            rust(BankKernel::StridedRead(access)),
            rust(BankKernel::StridedWrite(access)),
        );
        let Some(any) = read.or(write) else {
            continue;
        };
        for at in any.points.iter().filter_map(|p| p.at.value()) {
            let _ = writeln!(
                out,
                "| {} bytes | {at} | {} | {} | {} | {} | {} |",
                access.bytes(),
                figure(Some(any), at, PASSES).map_or("—".into(), |p| format!("{p:.0}")),
                counted_cell(read, at),
                cell(figure(read, at, SLOW_DOWN)),
                counted_cell(write, at),
                cell(figure(write, at, SLOW_DOWN)),
            );
        }
    }
    if let Some(tile) = rust(BankKernel::TileColumnRead) {
        for at in tile.points.iter().filter_map(|p| p.at.value()) {
            let _ = writeln!(
                out,
                "| tile column | {at} | {} | {} | {} | — | — |",
                figure(Some(tile), at, PASSES).map_or("—".into(), |p| format!("{p:.0}")),
                counted_cell(Some(tile), at),
                cell(figure(Some(tile), at, SLOW_DOWN)),
            );
        }
    }
    out
}

/// The model's passes against the counted wavefronts per request of 4-byte reads at `strides`.
fn pass_checks(result: &ExperimentResult, strides: &[u32]) -> Vec<Option<CounterCheck>> {
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    strides
        .iter()
        .map(|&stride| {
            let point = result
                .series_of(read.kernel(), Implementation::Rust)?
                .at(stride as i64)?;
            let counted = counted(point)?.wavefronts_per_request(SharedAccess::Load)?;
            Some(CounterCheck::new(
                format!("4-byte read passes per request at stride {stride}"),
                model_passes(read, stride) as f64,
                counted,
            ))
        })
        .collect()
}

/// A bank row with the counters' word on the passes it rests on.
pub fn with_counters(row: LedgerRow, result: &ExperimentResult, report: &Report) -> LedgerRow {
    let strides: &[u32] = match row.id.as_str() {
        "bpg-3.2.2.1-bank-conflicts" => &[1, 2, 32],
        "bpg-3.2.2.1-broadcast" => &[0, 1],
        _ => return row,
    };
    row.with_counters(evidence(pass_checks(result, strides), result, report))
}
