use super::{CudaTransferRunner, OpenClTransferRunner};
use crate::error::Result;
use crate::gpu::HostMemoryKind;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{SampleTimer, timed_launches};

/// Which way a copy goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferDirection {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

impl TransferDirection {
    /// How reports abbreviate it.
    pub fn short(self) -> &'static str {
        match self {
            Self::HostToDevice => "H2D",
            Self::DeviceToHost => "D2H",
            Self::DeviceToDevice => "D2D",
        }
    }
}

/// One copy a runner measures: a direction, from or to one kind of host memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransferEntry {
    pub implementation: Implementation,
    pub direction: TransferDirection,
    /// The host memory copied from or to; `None` for device-to-device copies.
    /// OpenCL's ordinary memory is [`HostMemoryKind::Pageable`], its mapped
    /// `CL_MEM_ALLOC_HOST_PTR` buffer [`HostMemoryKind::Pinned`].
    pub host: Option<HostMemoryKind>,
    /// The API call, as series keys name it.
    pub call: &'static str,
    /// The host memory, as series keys name it (empty for device to device).
    pub variant: &'static str,
    /// Samples per sample of the run: [`PAGEABLE_SAMPLE_FACTOR`] for CUDA's
    /// pageable copies, 1 otherwise.
    pub sample_factor: u32,
}

/// Samples of CUDA's pageable copies: three times the run's, since the host clock and the CPU's staging
/// copy make them spread far more than the copy engines' event-timed figures.
pub const PAGEABLE_SAMPLE_FACTOR: u32 = 3;

/// One programming model's side of the transfers family, with its own device
/// and host buffers (BabelStream's `Stream`). Each copy's destination is
/// filled with other data before it is timed, so the read-back proves the copy.
pub trait TransferRunner {
    /// What the progress bar calls its copies.
    fn name(&self) -> &'static str;
    /// Its copies, in the order their series are reported.
    fn entries(&self) -> Vec<TransferEntry>;
    /// Makes every buffer for copies of up to `source.len()` floats, holding
    /// `source`, with every host page written: before any timing.
    fn prepare(&mut self, source: &[f32]) -> Result<()>;
    /// Per-copy milliseconds of each sample of copying the first `count`
    /// floats as `entry` says ([`timed_copies`]).
    fn time(&mut self, entry: &TransferEntry, count: usize, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The first `count` floats of the last timed copy's destination; host
    /// memory a copy overwrote holds the source again afterwards.
    fn read_back(&mut self, entry: &TransferEntry, count: usize) -> Result<Vec<f32>>;
}

/// Milliseconds per copy of `copy`, one per sample: the suite's
/// [`timed_launches`] with `sample_factor` times the samples.
pub fn timed_copies(
    timer: &mut dyn SampleTimer,
    settings: &RunSettings,
    sample_factor: u32,
    copy: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
    timed_launches(timer, &settings.with_samples_times(sample_factor), copy)
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners and, for each series left out, what and why.
#[allow(clippy::type_complexity)]
pub fn transfer_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn TransferRunner + '_>>, Vec<(String, String)>)> {
    let info = dut.info();
    let mut waived = Vec::new();
    if !info.can_map_host_memory {
        waived.push((
            "the mapped-memory series".to_string(),
            format!("{} cannot map host memory (canMapHostMemory = 0)", info.name),
        ));
    }
    let mut runners: Vec<Box<dyn TransferRunner + '_>> =
        vec![Box::new(CudaTransferRunner::new(dut.gpu(), info.can_map_host_memory))];
    match dut.opencl_or_waiver() {
        (Some(side), _) => runners.push(Box::new(OpenClTransferRunner::new(side.context(), side.queue()))),
        (None, Some(why)) => waived.push(("the OpenCL series".to_string(), why)),
        (None, None) => {}
    }
    Ok((runners, waived))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use super::timed_copies;
    use crate::error::Result;
    use crate::run_settings::RunSettings;
    use crate::timing::SampleTimer;

    /// A clock on which every copy takes 20 ms.
    struct FakeClock {
        copies: Rc<Cell<u32>>,
    }

    impl SampleTimer for FakeClock {
        fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
            let before = self.copies.get();
            enqueue()?;
            Ok(20.0 * (self.copies.get() - before) as f64)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn copies_are_paced_and_the_factor_multiplies_the_samples_only() {
        let settings = RunSettings {
            samples: 4,
            reps: 5,
            ..RunSettings::default()
        };
        for factor in [1, 3] {
            let copies = Rc::new(Cell::new(0));
            let mut clock = FakeClock { copies: copies.clone() };
            let times = timed_copies(&mut clock, &settings, factor, &mut || {
                copies.set(copies.get() + 1);
                Ok(())
            })
            .unwrap();
            assert_eq!(times, vec![20.0; 4 * factor as usize]);
            // Probe: a warm-up and one timed copy; then a warm-up and samples of
            // ceil(50 ms / 20 ms) = 3 copies (fewer than --reps 5: paced).
            assert_eq!(copies.get(), 2 + 1 + 4 * factor * 3);
        }
    }
}
