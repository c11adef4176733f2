//! Reads every GPU of the run on a background thread while the experiments
//! measure: clocks, power, temperature and clock event reasons, every
//! interval and at each experiment's start and end.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{ExperimentWindow, NvmlDevice, NvmlDeviceFacts, NvmlGpus, SampleRound, TelemetryRecord, TelemetrySample};

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
    gpus: Vec<(usize, NvmlDeviceFacts)>,
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

fn sample_all(devices: &[NvmlDevice], started: Instant) -> SampleRound {
    SampleRound {
        at_ms: started.elapsed().as_secs_f64() * 1e3,
        samples: devices.iter().map(TelemetrySample::read).collect(),
    }
}

fn sampling_loop(devices: Vec<NvmlDevice>, interval: Duration, control: Receiver<Control>) -> Vec<SampleRound> {
    let started = Instant::now();
    let mut rounds = vec![sample_all(&devices, started)];
    loop {
        match control.recv_timeout(interval) {
            Err(RecvTimeoutError::Timeout) => rounds.push(sample_all(&devices, started)),
            Ok(Control::SampleNow(reply)) => {
                rounds.push(sample_all(&devices, started));
                let _ = reply.send(rounds.len() - 1);
            }
            Ok(Control::Stop) | Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    rounds.push(sample_all(&devices, started));
    rounds
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
            let (control, receiver) = mpsc::channel();
            let thread = std::thread::Builder::new()
                .name("ptxsuite-telemetry".into())
                .spawn(move || sampling_loop(devices, interval, receiver))
                .map_err(|e| format!("the telemetry thread could not start: {e}"))?;
            Ok(Sampling {
                control,
                thread: Some(thread),
                gpus: gpus.gpus().iter().map(|g| (g.ordinal, g.facts.clone())).collect(),
                source: gpus.source(),
                notes: gpus
                    .unmatched()
                    .iter()
                    .map(|why| format!("no telemetry for one GPU: {why}"))
                    .collect(),
                windows: Vec::new(),
            })
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
