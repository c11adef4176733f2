//! Figures a kernel measures itself (`clock64` cycles, `%globaltimer`
//! nanoseconds, each block's own count), kept for every launch of the one
//! timing loop ([`time_per_launch`]): each launch writes into a buffer of its
//! own, so the figures are summarised over the same samples of `reps`
//! launches as the events' milliseconds.

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, DeviceCopy, Gpu};
use crate::run_settings::RunSettings;
use crate::timing::{SampleTimer, time_per_launch};

/// One device buffer per launch of a timing run, handed out in launch order.
pub struct LaunchOutputs<T: DeviceCopy> {
    buffers: Vec<DeviceBuffer<T>>,
    used: usize,
}

/// What a timing run with kept outputs measured.
pub struct TimedLaunches<T> {
    /// Milliseconds per launch of each sample (CUDA events).
    pub times_ms: Vec<f64>,
    /// What every launch wrote, the warm-up first.
    pub written: Vec<Vec<T>>,
    /// The launches per sample (`--reps`, fewer where the outputs would not fit [`MAX_KEPT_LAUNCHES`]).
    pub reps: u32,
}

/// The most launches whose outputs a timing run keeps (one buffer each):
/// more `--reps` than fit are lowered for these runs.
pub const MAX_KEPT_LAUNCHES: usize = 2048;

/// The launches [`time_per_launch`] makes with `settings`: a warm-up, then
/// `samples` samples of `reps` launches.
pub fn launches_of(settings: &RunSettings) -> usize {
    1 + settings.samples as usize * settings.reps.max(1) as usize
}

/// The launches per sample of a timing run that keeps its outputs (`--reps`, or fewer: [`MAX_KEPT_LAUNCHES`]).
pub fn kept_reps(settings: &RunSettings) -> u32 {
    within_launches(settings, MAX_KEPT_LAUNCHES).reps
}

/// `settings` with `reps` lowered (to 1 at least) so that a timing run makes at most `launches` launches.
pub fn within_launches(settings: &RunSettings, launches: usize) -> RunSettings {
    let per_sample = (launches.saturating_sub(1) / settings.samples.max(1) as usize).max(1);
    RunSettings {
        reps: settings.reps.clamp(1, per_sample.min(u32::MAX as usize) as u32),
        ..settings.clone()
    }
}

impl<T: DeviceCopy> LaunchOutputs<T> {
    /// Room for every launch a timing run with `settings` (or with fewer
    /// reps, [`crate::timing::paced`]) makes, `words` elements each.
    pub fn for_settings(gpu: &Gpu, settings: &RunSettings, words: usize) -> Result<Self> {
        let buffers = (0..launches_of(settings).min(MAX_KEPT_LAUNCHES))
            .map(|_| DeviceBuffer::uninit(gpu, words))
            .collect::<Result<_>>()?;
        Ok(Self { buffers, used: 0 })
    }

    /// The buffer of the next launch.
    pub fn next_launch(&mut self) -> Result<&mut DeviceBuffer<T>> {
        let count = self.buffers.len();
        let buffer = self.buffers.get_mut(self.used).ok_or_else(|| {
            Error::InvalidInput(format!(
                "a timing run made more than the {count} launches its outputs were made for"
            ))
        })?;
        self.used += 1;
        Ok(buffer)
    }

    /// What each launch since the last [`time`](Self::time) wrote, in launch order (waits for the GPU).
    fn read(&self) -> Result<Vec<Vec<T>>> {
        self.buffers[..self.used].iter().map(DeviceBuffer::to_host).collect()
    }

    /// [`time_per_launch`] of `launch`, which is given the buffer its launch
    /// writes, with `settings` (its reps lowered where the launches would
    /// outnumber the buffers).
    pub fn time(
        &mut self,
        timer: &mut dyn SampleTimer,
        settings: &RunSettings,
        launch: &mut dyn FnMut(&mut DeviceBuffer<T>) -> Result<()>,
    ) -> Result<TimedLaunches<T>> {
        let settings = within_launches(settings, self.buffers.len());
        self.used = 0;
        let times_ms = time_per_launch(timer, &settings, &mut || launch(self.next_launch()?))?;
        Ok(TimedLaunches {
            times_ms,
            written: self.read()?,
            reps: settings.reps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::launches_of;
    use crate::run_settings::RunSettings;

    #[test]
    fn reps_are_lowered_only_where_the_launches_would_not_fit() {
        let settings = RunSettings {
            reps: 20,
            samples: 11,
            ..RunSettings::default()
        };
        assert_eq!(super::within_launches(&settings, 221).reps, 20);
        assert_eq!(super::within_launches(&settings, 2048).reps, 20);
        assert_eq!(super::within_launches(&settings, 200).reps, 18, "1 + 11 × 18 = 199");
        assert_eq!(
            super::within_launches(&settings, 5).reps,
            1,
            "at least one launch a sample"
        );
        let many = RunSettings {
            reps: 10_000,
            samples: 1_000,
            ..RunSettings::default()
        };
        let lowered = super::within_launches(&many, super::MAX_KEPT_LAUNCHES);
        assert!(launches_of(&lowered) <= super::MAX_KEPT_LAUNCHES, "{}", lowered.reps);
    }

    #[test]
    fn a_run_makes_one_warm_up_and_samples_times_reps_launches() {
        let settings = RunSettings {
            reps: 7,
            samples: 3,
            ..RunSettings::default()
        };
        assert_eq!(launches_of(&settings), 22);
    }
}
