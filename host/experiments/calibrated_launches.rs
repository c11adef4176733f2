//! Launches whose length is chosen at run time: a kernel's loop count
//! calibrated so that one launch takes about a target time on the GPU
//! measured (long enough that the launch overhead is noise, short enough for
//! a quick run), then timed by the suite's one timing loop.

use crate::error::Result;
pub use crate::timing::timed_launches;

/// The loop count of the first probe launch.
pub const PROBE_ITERATIONS: u32 = 64;

/// The loop count that makes a launch of `iterations` that took
/// `measured_ms` take about `target_ms` (time taken as proportional to the
/// count), between 1 and `max`.
pub fn scaled_iterations(iterations: u32, measured_ms: f64, target_ms: f64, max: u32) -> u32 {
    if !(measured_ms.is_finite() && measured_ms > 0.0) {
        return iterations.clamp(1, max.max(1));
    }
    let scaled = iterations.max(1) as f64 * target_ms / measured_ms;
    scaled.round().clamp(1.0, max.max(1) as f64) as u32
}

/// The loop count for launches of about `target_ms`: a probe at
/// [`PROBE_ITERATIONS`], scaled, then a second probe at that count (long
/// enough that the launch overhead no longer skews it), scaled again.
/// `probe(n)` is the time of one launch of `n` iterations after a warm-up
/// ([`probe_ms`](crate::timing::probe_ms) on the caller's clock, as a family's runner times it).
pub fn calibrate_by_probe(target_ms: f64, max: u32, probe: &mut dyn FnMut(u32) -> Result<f64>) -> Result<u32> {
    let mut iterations = PROBE_ITERATIONS.min(max.max(1));
    for _ in 0..2 {
        let ms = probe(iterations)?;
        iterations = scaled_iterations(iterations, ms, target_ms, max);
    }
    Ok(iterations)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use super::{calibrate_by_probe, scaled_iterations};
    use crate::error::Result;
    use crate::timing::{SampleTimer, probe_ms};

    /// The calibration as a timer would run it (`launch(n)` enqueues one launch
    /// of `n` iterations): the reference the runners' probes are held to.
    fn calibrate(
        timer: &mut dyn SampleTimer,
        target_ms: f64,
        max: u32,
        launch: &mut dyn FnMut(u32) -> Result<()>,
    ) -> Result<u32> {
        calibrate_by_probe(target_ms, max, &mut |n| probe_ms(timer, &mut || launch(n)))
    }

    #[test]
    fn iterations_scale_with_the_time_asked_for() {
        assert_eq!(scaled_iterations(64, 0.01, 0.5, 1 << 24), 3200);
        assert_eq!(scaled_iterations(1000, 2.0, 0.5, 1 << 24), 250);
        assert_eq!(scaled_iterations(64, 1e-9, 0.5, 1000), 1000, "capped");
        assert_eq!(scaled_iterations(1, 100.0, 0.5, 1000), 1, "at least one");
        assert_eq!(scaled_iterations(64, 0.0, 0.5, 1000), 64, "no measurement: unchanged");
        assert_eq!(scaled_iterations(64, f64::NAN, 0.5, 1000), 64);
    }

    /// A GPU whose launches take 5 µs plus 1 µs per iteration.
    struct LinearClock {
        last_iterations: Rc<Cell<u32>>,
    }

    impl SampleTimer for LinearClock {
        fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
            enqueue()?;
            Ok(0.005 + 0.001 * self.last_iterations.get() as f64)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn calibration_overcomes_the_launch_overhead() {
        let last = Rc::new(Cell::new(0));
        let mut clock = LinearClock {
            last_iterations: last.clone(),
        };
        let seen = last.clone();
        let n = calibrate(&mut clock, 0.5, 1 << 24, &mut |n| {
            seen.set(n);
            Ok(())
        })
        .unwrap();
        // The first probe (64 iterations, 0.069 ms) overestimates a launch; the second corrects it.
        let ms = 0.005 + 0.001 * n as f64;
        assert!((ms - 0.5).abs() < 0.01, "{n} iterations take {ms} ms");
    }

    #[test]
    fn a_runner_s_probes_calibrate_as_its_timer_would() {
        // The same GPU, timed by the caller (a family's runner probing on its own clock).
        let mut probes = Vec::new();
        let n = calibrate_by_probe(0.5, 1 << 24, &mut |n| {
            probes.push(n);
            Ok(0.005 + 0.001 * n as f64)
        })
        .unwrap();
        let last = Rc::new(Cell::new(0));
        let mut clock = LinearClock {
            last_iterations: last.clone(),
        };
        let by_timer = calibrate(&mut clock, 0.5, 1 << 24, &mut |n| {
            last.set(n);
            Ok(())
        })
        .unwrap();
        assert_eq!(n, by_timer);
        assert_eq!(probes.len(), 2, "{probes:?}");
        assert_eq!(probes[0], 64, "the first probe");
        let capped = calibrate_by_probe(0.5, 100, &mut |n| Ok(0.001 * n as f64)).unwrap();
        assert_eq!(capped, 100, "at most max");
    }
}
