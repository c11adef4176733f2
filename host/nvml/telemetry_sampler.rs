//! Reads every GPU of the run on a background thread while the experiments
//! measure: clocks, power, temperature and clock event reasons, every
//! interval and at each experiment's start and end.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{ExperimentWindow, NvmlDevice, NvmlGpus, SampleRound};
use crate::facts::{CudaOrdinal, NvmlDeviceFacts, TelemetryRecord, TelemetrySample};

/// The default time between samples.
pub const DEFAULT_SAMPLE_INTERVAL: Duration = Duration::from_millis(100);

enum Control {
    /// Take a round now and answer with its index.
    SampleNow(Sender<usize>),
    Stop,
}

struct Sampling {
    control: Sender<Control>,
    thread: Option<JoinHandle<Vec<SampleRound>>>,
    gpus: Vec<(CudaOrdinal, NvmlDeviceFacts)>,
    source: String,
    notes: Vec<String>,
    windows: Vec<ExperimentWindow>,
}

/// The background sampler of a run; without NVML it only records why there is no telemetry.
pub struct TelemetrySampler {
    interval: Duration,
    state: Result<Sampling, String>,
}

/// Where an experiment's window starts (see [`TelemetrySampler::begin`]).
#[derive(Clone, Copy, Debug)]
pub struct WindowStart(Option<usize>);

/// Reads every GPU once: one sample per GPU, in the sampler's order.
type ReadAll = Box<dyn FnMut() -> Vec<TelemetrySample> + Send>;

fn sampling_loop(mut read: ReadAll, interval: Duration, control: Receiver<Control>) -> Vec<SampleRound> {
    let started = Instant::now();
    let mut round = move || SampleRound {
        at_ms: started.elapsed().as_secs_f64() * 1e3,
        samples: read(),
    };
    let mut rounds = vec![round()];
    loop {
        match control.recv_timeout(interval) {
            Err(RecvTimeoutError::Timeout) => rounds.push(round()),
            Ok(Control::SampleNow(reply)) => {
                rounds.push(round());
                let _ = reply.send(rounds.len() - 1);
            }
            Ok(Control::Stop) | Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    rounds.push(round());
    rounds
}

impl Sampling {
    /// Starts the thread that calls `read` every `interval` and on request.
    fn spawn(
        read: ReadAll,
        interval: Duration,
        gpus: Vec<(CudaOrdinal, NvmlDeviceFacts)>,
        source: String,
        notes: Vec<String>,
    ) -> Result<Self, String> {
        let (control, receiver) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("ptxsuite-telemetry".into())
            .spawn(move || sampling_loop(read, interval, receiver))
            .map_err(|e| format!("the telemetry thread could not start: {e}"))?;
        Ok(Self {
            control,
            thread: Some(thread),
            gpus,
            source,
            notes,
            windows: Vec::new(),
        })
    }
}

impl TelemetrySampler {
    /// Starts sampling the GPUs of `gpus` every `interval`; with `Err(why)` (no NVML) the
    /// sampler samples nothing and its record says why.
    pub fn start(gpus: Result<&NvmlGpus, &str>, interval: Duration) -> Self {
        let state = gpus.map_err(str::to_string).and_then(|gpus| {
            if gpus.gpus().is_empty() {
                let mut why = "NVML matched none of the run's GPUs".to_string();
                if !gpus.unmatched().is_empty() {
                    why.push_str(&format!(" ({})", gpus.unmatched().join("; ")));
                }
                return Err(why);
            }
            let devices: Vec<NvmlDevice> = gpus.gpus().iter().map(|g| g.device.clone()).collect();
            Sampling::spawn(
                Box::new(move || devices.iter().map(TelemetrySample::read).collect()),
                interval,
                gpus.gpus().iter().map(|g| (g.ordinal, g.facts.clone())).collect(),
                gpus.source(),
                gpus.unmatched()
                    .iter()
                    .map(|why| format!("no telemetry for one GPU: {why}"))
                    .collect(),
            )
        });
        Self { interval, state }
    }

    /// Whether it samples (NVML was there).
    pub fn is_sampling(&self) -> bool {
        self.state.is_ok()
    }

    /// Takes a round now and returns its index (`None` if the thread has gone).
    fn sample_now(sampling: &Sampling) -> Option<usize> {
        let (reply, answer) = mpsc::channel();
        sampling.control.send(Control::SampleNow(reply)).ok()?;
        answer.recv().ok()
    }

    /// Marks the start of an experiment: one round is taken now (so that even an experiment
    /// shorter than the interval has samples).
    pub fn begin(&self) -> WindowStart {
        WindowStart(self.state.as_ref().ok().and_then(Self::sample_now))
    }

    /// Marks the end of `experiment` on `device` (`None`: the whole node), begun at `start`.
    pub fn end(&mut self, start: WindowStart, experiment: &str, device: Option<usize>) {
        let Ok(sampling) = self.state.as_mut() else {
            return;
        };
        let (Some(first_round), Some(last_round)) = (start.0, Self::sample_now(sampling)) else {
            return;
        };
        sampling.windows.push(ExperimentWindow {
            experiment: experiment.to_string(),
            device,
            first_round,
            last_round,
        });
    }

    /// Stops the thread and summarises what it read.
    pub fn finish(mut self) -> TelemetryRecord {
        let interval_ms = self.interval.as_millis() as u64;
        match &mut self.state {
            Err(why) => TelemetryRecord::unavailable(why.clone()),
            Ok(sampling) => {
                let _ = sampling.control.send(Control::Stop);
                let rounds = match sampling.thread.take().map(JoinHandle::join) {
                    Some(Ok(rounds)) => rounds,
                    _ => return TelemetryRecord::unavailable("the telemetry thread stopped unexpectedly"),
                };
                TelemetryRecord::build(
                    sampling.source.clone(),
                    interval_ms,
                    std::mem::take(&mut sampling.notes),
                    std::mem::take(&mut sampling.gpus),
                    &rounds,
                    &sampling.windows,
                )
            }
        }
    }
}

impl Drop for TelemetrySampler {
    /// A sampler dropped without [`finish`](Self::finish) (an early return) stops its thread.
    fn drop(&mut self) {
        if let Ok(sampling) = &mut self.state
            && let Some(thread) = sampling.thread.take()
        {
            let _ = sampling.control.send(Control::Stop);
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    use super::{CudaOrdinal, Sampling, TelemetrySampler};
    use crate::facts::{MatchedBy, NvmlDeviceFacts, PcieLinkFacts, TelemetrySample};

    fn facts() -> NvmlDeviceFacts {
        NvmlDeviceFacts {
            name: "fake".into(),
            uuid: "GPU-fake".into(),
            pci: None,
            matched_by: MatchedBy::Uuid,
            pcie: PcieLinkFacts::default(),
            nvlinks: Vec::new(),
            max_sm_clock_mhz: None,
            max_memory_clock_mhz: None,
            power_limit_w: None,
        }
    }

    /// A sampler over a fake GPU whose SM clock reads the number of the round (0, 1, 2, …).
    fn counting_sampler(interval: Duration) -> (TelemetrySampler, Arc<AtomicU32>) {
        let reads = Arc::new(AtomicU32::new(0));
        let counter = reads.clone();
        let read = Box::new(move || {
            let round = counter.fetch_add(1, Ordering::SeqCst);
            vec![TelemetrySample {
                sm_clock_mhz: Some(round),
                ..TelemetrySample::default()
            }]
        });
        let sampling = Sampling::spawn(
            read,
            interval,
            vec![(CudaOrdinal(4), facts())],
            "fake".into(),
            Vec::new(),
        )
        .unwrap();
        (
            TelemetrySampler {
                interval,
                state: Ok(sampling),
            },
            reads,
        )
    }

    #[test]
    fn windows_hold_the_rounds_from_their_start_to_their_end() {
        let (mut sampler, reads) = counting_sampler(Duration::from_millis(2));
        assert!(sampler.is_sampling());
        let start = sampler.begin();
        std::thread::sleep(Duration::from_millis(40));
        sampler.end(start, "offset", Some(4));
        let quick = sampler.begin();
        sampler.end(quick, "tiny", None);
        let record = sampler.finish();
        let total = reads.load(Ordering::SeqCst) as usize;
        let gpu = record.device(CudaOrdinal(4)).unwrap();
        assert_eq!(gpu.run.samples, total, "every round is in the run's summary");
        let offset = gpu.during("offset").unwrap();
        let sm = offset.sm_clock_mhz.unwrap();
        // The rounds are numbered in order: a window is the contiguous run from its first to its last.
        assert_eq!(offset.samples as f64, sm.max - sm.min + 1.0);
        assert!(
            offset.samples >= 3,
            "periodic rounds inside the window: {}",
            offset.samples
        );
        // An experiment shorter than the interval still has its start and end rounds.
        let tiny = gpu.during("tiny").unwrap();
        assert_eq!(tiny.samples, 2);
        assert!(tiny.sm_clock_mhz.unwrap().min > sm.max);
        assert_eq!(record.source, "fake");
        assert_eq!(record.interval_ms, 2);
    }

    #[test]
    fn dropping_a_running_sampler_stops_its_thread() {
        let (sampler, reads) = counting_sampler(Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(10));
        drop(sampler);
        let after_drop = reads.load(Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(reads.load(Ordering::SeqCst), after_drop, "no reads once dropped");
    }
}
