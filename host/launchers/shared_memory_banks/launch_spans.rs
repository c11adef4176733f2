//! The block spans of every launch of one timing run ([`time_per_launch`]):
//! each launch writes into a span buffer of its own, so the SM clocks are
//! summarised over the same samples of `reps` launches as the events'
//! milliseconds. The CUDA runner's copy of the experiments' `LaunchOutputs`
//! (`host/experiments/launch_outputs.rs`), whose launch cap and lowering of
//! `--reps` it follows (a test holds the two to the same figures); it could
//! move under the launchers and serve both.

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu};
use crate::run_settings::RunSettings;
use crate::timing::{SampleTimer, time_per_launch};

/// The most launches whose spans a timing run keeps (one buffer each):
/// more `--reps` than fit are lowered for these runs.
pub const MAX_KEPT_LAUNCHES: usize = 2048;

/// The launches [`time_per_launch`] makes with `settings`: a warm-up, then
/// `samples` samples of `reps` launches.
fn launches_of(settings: &RunSettings) -> usize {
    1 + settings.samples as usize * settings.reps.max(1) as usize
}

/// `settings` with `reps` lowered (to 1 at least) so that a timing run makes at most `launches` launches.
fn within_launches(settings: &RunSettings, launches: usize) -> RunSettings {
    let per_sample = (launches.saturating_sub(1) / settings.samples.max(1) as usize).max(1);
    RunSettings {
        reps: settings.reps.clamp(1, per_sample.min(u32::MAX as usize) as u32),
        ..settings.clone()
    }
}

/// The launches per sample of a timing run that keeps its spans: `--reps`, or
/// fewer where `1 + samples × reps` launches would pass [`MAX_KEPT_LAUNCHES`].
pub fn kept_span_reps(settings: &RunSettings) -> u32 {
    within_launches(settings, MAX_KEPT_LAUNCHES).reps
}

/// One span buffer per launch of a timing run, handed out in launch order.
pub struct LaunchSpans {
    buffers: Vec<DeviceBuffer<u64>>,
    used: usize,
}

impl LaunchSpans {
    /// Room for every launch a timing run with `settings` makes (at most
    /// [`MAX_KEPT_LAUNCHES`]), `words` span words each.
    pub fn for_settings(gpu: &Gpu, settings: &RunSettings, words: usize) -> Result<Self> {
        let buffers = (0..launches_of(settings).min(MAX_KEPT_LAUNCHES))
            .map(|_| DeviceBuffer::uninit(gpu, words))
            .collect::<Result<_>>()?;
        Ok(Self { buffers, used: 0 })
    }

    /// The buffer of the next launch.
    fn next_launch(&mut self) -> Result<&mut DeviceBuffer<u64>> {
        let count = self.buffers.len();
        let buffer = self.buffers.get_mut(self.used).ok_or_else(|| {
            Error::InvalidInput(format!(
                "a timing run made more than the {count} launches its spans were made for"
            ))
        })?;
        self.used += 1;
        Ok(buffer)
    }

    /// [`time_per_launch`] of `launch`, which is given the span buffer its
    /// launch writes, with `settings` (its reps lowered where the launches
    /// would outnumber the buffers): the milliseconds of each sample, what
    /// every launch wrote (the warm-up first, read after the GPU is done) and
    /// the reps a sample ran.
    #[allow(clippy::type_complexity)]
    pub fn time(
        &mut self,
        timer: &mut dyn SampleTimer,
        settings: &RunSettings,
        launch: &mut dyn FnMut(&mut DeviceBuffer<u64>) -> Result<()>,
    ) -> Result<(Vec<f64>, Vec<Vec<u64>>, u32)> {
        let settings = within_launches(settings, self.buffers.len());
        self.used = 0;
        let times_ms = time_per_launch(timer, &settings, &mut || launch(self.next_launch()?))?;
        let written = self.buffers[..self.used]
            .iter()
            .map(DeviceBuffer::to_host)
            .collect::<Result<_>>()?;
        Ok((times_ms, written, settings.reps))
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_KEPT_LAUNCHES, kept_span_reps, launches_of, within_launches};
    use crate::run_settings::RunSettings;

    fn settings(reps: u32, samples: u32) -> RunSettings {
        RunSettings {
            reps,
            samples,
            ..RunSettings::default()
        }
    }

    #[test]
    fn reps_are_lowered_only_where_the_spans_would_not_fit() {
        assert_eq!(kept_span_reps(&settings(20, 11)), 20, "the defaults fit");
        assert_eq!(
            kept_span_reps(&settings(10_000, 1)),
            2047,
            "1 + 1 × 2047 = 2048 launches"
        );
        assert_eq!(kept_span_reps(&settings(10_000, 1000)), 2, "1 + 1000 × 2 = 2001");
        assert_eq!(kept_span_reps(&settings(5, 3000)), 1, "at least one launch a sample");
        assert_eq!(within_launches(&settings(20, 11), 200).reps, 18, "1 + 11 × 18 = 199");
        let lowered = within_launches(&settings(10_000, 1_000), MAX_KEPT_LAUNCHES);
        assert!(launches_of(&lowered) <= MAX_KEPT_LAUNCHES, "{}", lowered.reps);
        assert_eq!(launches_of(&settings(7, 3)), 22);
    }
}
