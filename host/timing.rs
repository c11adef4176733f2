//! The one timing protocol every measurement shares (NVIDIA's samples'):
//! one warm-up launch, then `samples` samples of `reps` launches between two
//! timing events; per-launch milliseconds per sample.
//!
//! A [`SampleTimer`] is the clock: CUDA events on a stream, OpenCL profiling
//! events on a queue, or the host clock around blocking work (pageable copies).

use std::time::Instant;

use crate::error::Result;
use crate::gpu::{EventTimer, Gpu};
use crate::opencl::ClQueue;
use crate::run_settings::RunSettings;

/// A clock for samples of enqueued work.
pub trait SampleTimer {
    /// Milliseconds that the work `enqueue` issues takes, waited for.
    fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64>;
    /// Waits for all work issued so far (after the warm-up).
    fn finish(&mut self) -> Result<()>;
}

/// Milliseconds per launch of `enqueue`, one figure per sample: a warm-up
/// launch, then `settings.samples` samples of `settings.reps` launches.
pub fn time_per_launch(
    timer: &mut dyn SampleTimer,
    settings: &RunSettings,
    enqueue: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    enqueue()?; // warm-up: module, caches, clocks
    timer.finish()?;
    let reps = settings.reps.max(1);
    let mut times_ms = Vec::with_capacity(settings.samples as usize);
    for _ in 0..settings.samples {
        let ms = timer.time_ms(&mut || {
            for _ in 0..reps {
                enqueue()?;
            }
            Ok(())
        })?;
        times_ms.push(ms / reps as f64);
    }
    Ok(times_ms)
}

/// GPU time aimed at per sample: where one launch is long, a sample holds
/// fewer than `--reps` launches (at least one).
pub const SAMPLE_BUDGET_MS: f64 = 50.0;

/// `settings` with `reps` lowered so that a sample of launches taking
/// `one_launch_ms` each stays near [`SAMPLE_BUDGET_MS`]: up to `--reps`
/// launches per sample, fewer where one launch is long.
pub fn paced(settings: &RunSettings, one_launch_ms: f64) -> RunSettings {
    let reps = ((SAMPLE_BUDGET_MS / one_launch_ms.max(1e-6)).ceil() as u32).clamp(1, settings.reps.max(1));
    RunSettings {
        reps,
        ..settings.clone()
    }
}

/// Milliseconds per launch of `launch`, one per sample, by the suite's
/// protocol ([`time_per_launch`]), with `--reps` lowered where one launch is
/// long ([`paced`]).
pub fn timed_launches(
    timer: &mut dyn SampleTimer,
    settings: &RunSettings,
    launch: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    let one = probe_ms(timer, launch)?;
    time_per_launch(timer, &paced(settings, one), launch)
}

/// The time of one launch of `enqueue` after a warm-up, for [`paced`].
pub fn probe_ms(timer: &mut dyn SampleTimer, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
    enqueue()?;
    timer.finish()?;
    timer.time_ms(enqueue)
}

/// Work enqueued on the GPU's stream before a sample's start event ([`CudaTimer::held`]).
pub type Hold<'a> = Box<dyn FnMut() -> Result<()> + 'a>;

/// CUDA events around work on the GPU's stream.
pub struct CudaTimer<'a> {
    gpu: &'a Gpu,
    events: EventTimer,
    hold: Option<Hold<'a>>,
}

impl<'a> CudaTimer<'a> {
    pub fn new(gpu: &'a Gpu) -> Result<Self> {
        Ok(Self {
            gpu,
            events: EventTimer::new(gpu)?,
            hold: None,
        })
    }

    /// Events whose start waits behind `hold` (a short spin on the GPU,
    /// nvbandwidth's latch): the idle GPU would otherwise reach the start
    /// event at once and then wait for the first launch to arrive, so that a
    /// sample's time held one launch latency (a few µs, tens when the host
    /// is slow, as under CUPTI). Held, every launch of the sample is queued
    /// before the start event fires, and the events time the GPU's work alone.
    pub fn held(gpu: &'a Gpu, hold: Hold<'a>) -> Result<Self> {
        Ok(Self {
            hold: Some(hold),
            ..Self::new(gpu)?
        })
    }
}

impl SampleTimer for CudaTimer<'_> {
    fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
        if let Some(hold) = self.hold.as_mut() {
            hold()?;
        }
        self.events.time_ms(self.gpu.stream(), enqueue)
    }

    fn finish(&mut self) -> Result<()> {
        self.gpu.synchronize()
    }
}

/// OpenCL profiling events on an in-order queue: from the START of the first
/// command a sample enqueues to the END of its last ([`ClQueue::time_ms`]),
/// the span CUDA events around the same launches measure.
pub struct OpenClTimer<'a>(pub &'a ClQueue);

impl SampleTimer for OpenClTimer<'_> {
    fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
        self.0.time_ms(enqueue)
    }

    fn finish(&mut self) -> Result<()> {
        Ok(self.0.finish()?)
    }
}

/// The host clock around work that blocks until it is done (pageable copies,
/// which the driver stages through its own pinned buffer).
pub struct HostClock;

impl SampleTimer for HostClock {
    fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
        let start = Instant::now();
        enqueue()?;
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{SampleTimer, time_per_launch};
    use crate::error::Result;
    use crate::run_settings::RunSettings;

    /// A clock that charges one millisecond per launch.
    struct CountingClock {
        launches: std::rc::Rc<std::cell::Cell<u32>>,
        finished: u32,
    }

    impl SampleTimer for CountingClock {
        fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
            let before = self.launches.get();
            enqueue()?;
            Ok((self.launches.get() - before) as f64)
        }
        fn finish(&mut self) -> Result<()> {
            self.finished += 1;
            Ok(())
        }
    }

    #[test]
    fn pacing_keeps_reps_unless_one_launch_is_long() {
        let settings = RunSettings {
            reps: 20,
            ..RunSettings::default()
        };
        assert_eq!(super::paced(&settings, 0.01).reps, 20);
        assert_eq!(super::paced(&settings, 10.0).reps, 5);
        assert_eq!(super::paced(&settings, 500.0).reps, 1);
        assert_eq!(super::paced(&settings, 0.0).reps, 20);
    }

    #[test]
    fn one_warm_up_then_samples_of_reps_launches() {
        let launches = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut clock = CountingClock {
            launches: launches.clone(),
            finished: 0,
        };
        let settings = RunSettings {
            reps: 7,
            samples: 3,
            ..RunSettings::default()
        };
        let counter = launches.clone();
        let times = time_per_launch(&mut clock, &settings, &mut || {
            counter.set(counter.get() + 1);
            Ok(())
        })
        .unwrap();
        assert_eq!(times, [1.0, 1.0, 1.0], "per-launch time = sample time / reps");
        assert_eq!(launches.get(), 1 + 3 * 7);
        assert_eq!(clock.finished, 1, "the warm-up is waited for before the first sample");
    }
}
