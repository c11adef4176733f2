//! Rendering and merging stay near-linear in a report's size: many series
//! in every experiment the registry knows (so each experiment's hooks are
//! timed too), at two sizes; the time may grow about as the size, not as
//! its square.

mod synthetic_reports;

use std::time::Duration;

use ptxsuite::experiments::{self, EXPERIMENTS};
use ptxsuite::report::{Metric, Report, Series, SeriesKey};
use ptxsuite::testbed::Implementation;
use synthetic_reports::{bandwidth_point, node_report, result};

/// A report of every experiment of the registry, each with `series` series of 4 points
/// (Rust kernels and their CUDA C twins).
fn wide_report(host: &str, series: usize) -> Report {
    let results = EXPERIMENTS
        .iter()
        .map(|e| {
            let all = (0..series)
                .map(|i| {
                    let implementation = if i % 2 == 0 {
                        Implementation::Rust
                    } else {
                        Implementation::CudaC
                    };
                    let mut s = Series::of(SeriesKey::new(format!("kernel_{}", i / 2), implementation, "f32"));
                    s.points = (0..4)
                        .map(|at| bandwidth_point(at, Some(1000.0 + (i % 97) as f64 + at as f64)))
                        .collect();
                    s
                })
                .collect();
            result(e.name(), 0, Metric::Bandwidth, all)
        })
        .collect();
    node_report(host, results)
}

/// This thread's CPU time: unlike the wall clock, other processes on a loaded
/// machine (CI, parallel builds) do not inflate it. Render, compare and merge
/// run on the calling thread.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for clock_gettime to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn best_of_three(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = thread_cpu_time();
            f();
            thread_cpu_time() - start
        })
        .min()
        .unwrap()
}

#[test]
fn render_compare_and_merge_grow_about_linearly() {
    let hooks = |name: &str| experiments::hooks(name);
    let (small, large) = (
        std::env::var("SCALING_SMALL").map_or(200, |v| v.parse().unwrap()),
        std::env::var("SCALING_LARGE").map_or(800, |v| v.parse().unwrap()),
    );
    let mut times = Vec::new();
    for n in [small, large] {
        let a = wide_report("node-a", n);
        let b = wide_report("node-b", n);
        let render = best_of_three(|| {
            a.render(&hooks).unwrap();
        });
        let compare = best_of_three(|| {
            ptxsuite::report::comparison::compare(&a, &b);
        });
        let inputs = vec![
            ("a/report.json".to_string(), a.clone()),
            ("b/report.json".to_string(), b.clone()),
        ];
        let merge = best_of_three(|| {
            let merged = ptxsuite::merge::merge(&inputs, 5.0).unwrap();
            ptxsuite::merge::markdown(&merged);
        });
        let series = n * EXPERIMENTS.len();
        eprintln!(
            "{series} series: render {:.3} s ({:.0} series/s), compare {:.3} s, merge {:.3} s",
            render.as_secs_f64(),
            series as f64 / render.as_secs_f64(),
            compare.as_secs_f64(),
            merge.as_secs_f64()
        );
        times.push((render, compare, merge));
    }
    let factor = (large / small) as f64;
    for (what, t0, t1) in [
        ("render", times[0].0, times[1].0),
        ("compare", times[0].1, times[1].1),
        ("merge", times[0].2, times[1].2),
    ] {
        let growth = t1.as_secs_f64() / t0.as_secs_f64().max(1e-4);
        // Linear gives 4x, quadratic 16x; 8x leaves room for a noisy machine.
        assert!(
            growth < 2.0 * factor,
            "{what}: {factor}x the series took {growth:.1}x the time"
        );
    }
}
