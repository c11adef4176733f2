//! A series measured for every ordered pair of GPUs as a source × destination
//! matrix (nvbandwidth's output): rows are sources, columns destinations, the
//! diagonal is empty. As Markdown for report.md and as rows of medians for JSON.

use std::fmt::Write;

use super::markdown::point_cell;
use super::{Point, PointKey, Series};

/// The medians of `series` as a `gpus` × `gpus` matrix, `[src][dst]`; `None` on the
/// diagonal and where nothing was measured (or the check failed).
pub fn pair_matrix(series: &Series, gpus: usize) -> Vec<Vec<Option<f64>>> {
    (0..gpus)
        .map(|src| {
            (0..gpus)
                .map(|dst| {
                    series
                        .point(PointKey::Pair { src, dst })
                        .filter(|_| src != dst)
                        .and_then(Point::median)
                })
                .collect()
        })
        .collect()
}

/// The GPUs a series' pair points span (the largest ordinal + 1).
pub fn pair_span(series: &Series) -> usize {
    series
        .points
        .iter()
        .filter_map(|p| match p.at {
            PointKey::Pair { src, dst } => Some(src.max(dst) + 1),
            PointKey::Value(_) => None,
        })
        .max()
        .unwrap_or(0)
}

/// A Markdown matrix of `series` over `gpus` GPUs: each cell the median (min–max), or
/// why there is none; `note` may add a word to a cell ("through host").
pub fn pair_matrix_markdown(series: &Series, gpus: usize, note: &dyn Fn(usize, usize) -> Option<String>) -> String {
    let mut out = String::new();
    let _ = write!(out, "| src \\ dst |");
    for dst in 0..gpus {
        let _ = write!(out, " GPU {dst} |");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "|---|{}", "---:|".repeat(gpus));
    for src in 0..gpus {
        let _ = write!(out, "| GPU {src} |");
        for dst in 0..gpus {
            if src == dst {
                let _ = write!(out, " — |");
                continue;
            }
            let mut cell = point_cell(series.point(PointKey::Pair { src, dst }));
            if let Some(word) = note(src, dst) {
                let _ = write!(cell, " ({word})");
            }
            let _ = write!(out, " {cell} |");
        }
        let _ = writeln!(out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{pair_matrix, pair_matrix_markdown, pair_span};
    use crate::report::{Devices, Metric, Point, PointKey, Series, SeriesKey, Status, Work};
    use crate::testbed::Implementation;

    fn series() -> Series {
        let key = SeriesKey::new("cuMemcpyPeerAsync", Implementation::CopyEngine, "f32").on(Devices::All);
        let mut series = Series::of(key);
        let at = |src, dst| PointKey::Pair { src, dst };
        let work = Work::bytes(1 << 20, 4 << 20);
        // 4 MiB in 0.01 ms per sample: 419.4 GB/s.
        series
            .points
            .push(Point::timed(at(0, 1), &Metric::Bandwidth, work, &[0.01; 3], None).unwrap());
        series
            .points
            .push(Point::timed(at(1, 0), &Metric::Bandwidth, work, &[0.02; 3], Some("mismatch".into())).unwrap());
        series
            .points
            .push(Point::unmeasured(at(2, 0), Status::Waived("no peer access".into())));
        series
    }

    #[test]
    fn matrices_put_sources_in_rows_and_leave_failures_and_the_diagonal_empty() {
        let series = series();
        assert_eq!(pair_span(&series), 3);
        let m = pair_matrix(&series, 3);
        assert!((m[0][1].unwrap() - 419.4304).abs() < 1e-3);
        assert_eq!(m[1][0], None, "a failed check shows no figure");
        assert_eq!(m[0][0], None);
        assert_eq!(m[2][0], None);
        let text = pair_matrix_markdown(&series, 3, &|src, dst| (src == 2 && dst == 0).then(|| "no P2P".into()));
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "| src \\ dst | GPU 0 | GPU 1 | GPU 2 |");
        assert_eq!(rows[2], "| GPU 0 | — | 419 (419–419) | — |");
        assert_eq!(rows[3], "| GPU 1 | **FAILED** | — | — |");
        assert_eq!(rows[4], "| GPU 2 | waived (no P2P) | — | — |");
    }
}
