//! A series measured for every ordered pair of GPUs as a source × destination
//! matrix (nvbandwidth's output): rows are sources, columns destinations, the
//! diagonal is empty. As Markdown for report.md and as rows of medians for JSON.
//!
//! A matrix has a row and a column per GPU its points name (by CUDA ordinal),
//! never one per number up to the largest ordinal: its size is bounded by the
//! points themselves, and a loaded report's points name only GPUs it lists.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use super::markdown::point_cell;
use super::{Point, PointKey, Series};

/// The medians of `series` as a matrix over the GPUs `gpus` (ordinals), `[src][dst]`; `None`
/// on the diagonal and where nothing was measured (or the check failed).
pub fn pair_matrix(series: &Series, gpus: &[usize]) -> Vec<Vec<Option<f64>>> {
    let points: HashMap<PointKey, &Point> = series.points.iter().map(|p| (p.at, p)).collect();
    gpus.iter()
        .map(|&src| {
            gpus.iter()
                .map(|&dst| {
                    points
                        .get(&PointKey::Pair { src, dst })
                        .filter(|_| src != dst)
                        .and_then(|p| p.median())
                })
                .collect()
        })
        .collect()
}

/// The GPUs (ordinals) a series' pair points name, in order, each once.
pub fn pair_gpus(series: &Series) -> Vec<usize> {
    let gpus: BTreeSet<usize> = series
        .points
        .iter()
        .flat_map(|p| match p.at {
            PointKey::Pair { src, dst } => vec![src, dst],
            PointKey::Value(_) => Vec::new(),
        })
        .collect();
    gpus.into_iter().collect()
}

/// A Markdown matrix of `series` over the GPUs `gpus` (ordinals): each cell the median
/// (min–max), or why there is none; `note` may add a word to a cell ("through host").
pub fn pair_matrix_markdown(series: &Series, gpus: &[usize], note: &dyn Fn(usize, usize) -> Option<String>) -> String {
    let points: HashMap<PointKey, &Point> = series.points.iter().map(|p| (p.at, p)).collect();
    let mut out = String::new();
    let _ = write!(out, "| src \\ dst |");
    for dst in gpus {
        let _ = write!(out, " GPU {dst} |");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "|---|{}", "---:|".repeat(gpus.len()));
    for &src in gpus {
        let _ = write!(out, "| GPU {src} |");
        for &dst in gpus {
            if src == dst {
                let _ = write!(out, " — |");
                continue;
            }
            let mut cell = point_cell(points.get(&PointKey::Pair { src, dst }).copied());
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
    use super::{pair_gpus, pair_matrix, pair_matrix_markdown};
    use crate::facts::Implementation;
    use crate::report::{Devices, Metric, Point, PointKey, Series, SeriesKey, Status, Work};

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
        assert_eq!(pair_gpus(&series), [0, 1, 2]);
        let m = pair_matrix(&series, &[0, 1, 2]);
        assert!((m[0][1].unwrap() - 419.4304).abs() < 1e-3);
        assert_eq!(m[1][0], None, "a failed check shows no figure");
        assert_eq!(m[0][0], None);
        assert_eq!(m[2][0], None);
        let text = pair_matrix_markdown(&series, &[0, 1, 2], &|src, dst| {
            (src == 2 && dst == 0).then(|| "no P2P".into())
        });
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "| src \\ dst | GPU 0 | GPU 1 | GPU 2 |");
        assert_eq!(rows[2], "| GPU 0 | — | 419 (419–419) | — |");
        assert_eq!(rows[3], "| GPU 1 | **FAILED** | — | — |");
        assert_eq!(rows[4], "| GPU 2 | waived (no P2P) | — | — |");
    }
}
