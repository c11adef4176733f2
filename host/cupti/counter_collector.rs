//! What a run keeps of CUPTI between collections: the library, the profiler
//! interface (initialized at the first collection, de-initialized with the
//! collector, as NVIDIA's samples and profilers keep it; the range profiler
//! itself is enabled only during a collection), each device's chip, each
//! chip's metric set and host object (built once), and the devices whose
//! counters are off (no permission, no support, a failed setup) with the
//! error, so that later collections on them fail at once.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::collection::{CollectError, Collected, collect};
use super::cupti_error::{CuptiError, CuptiResult};
use super::ffi::RawContext;
use super::library::Cupti;
use super::metric_host::MetricHost;
use super::metric_set::MetricSet;
use super::profiler_session::ProfilerSession;

/// One chip's scheduled metrics and the host object that evaluates them.
struct ChipMetrics {
    wanted: Vec<String>,
    set: MetricSet,
    host: MetricHost,
}

#[derive(Default)]
struct State {
    /// The profiler interface, from the first collection on.
    session: Option<ProfilerSession>,
    /// CUDA ordinal → chip name.
    chips: BTreeMap<usize, String>,
    metrics: Vec<ChipMetrics>,
    /// CUDA ordinal → why its counters are off for the rest of the run.
    off: BTreeMap<usize, CuptiError>,
}

/// CUPTI for a run: collections on any of its devices, one at a time.
pub struct CounterCollector {
    cupti: Arc<Cupti>,
    state: Mutex<State>,
}

impl CounterCollector {
    /// Opens CUPTI ([`Cupti::open`]).
    pub fn open() -> CuptiResult<Self> {
        Ok(Self::with(Cupti::open()?))
    }

    pub fn with(cupti: Cupti) -> Self {
        Self {
            cupti: Arc::new(cupti),
            state: Mutex::new(State::default()),
        }
    }

    pub fn cupti(&self) -> &Arc<Cupti> {
        &self.cupti
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` with the collector's profiler interface, initializing it if no
    /// collection has yet (it then stays initialized, as for collections).
    pub fn with_session<R>(&self, f: impl FnOnce(&ProfilerSession) -> R) -> CuptiResult<R> {
        let mut state = self.state();
        if state.session.is_none() {
            state.session = Some(ProfilerSession::begin(&self.cupti)?);
        }
        Ok(f(state.session.as_ref().expect("initialized above")))
    }

    /// Why the counters of CUDA device `device` are off for the rest of the run, if they are.
    pub fn off(&self, device: usize) -> Option<CuptiError> {
        self.state().off.get(&device).cloned()
    }

    /// The metrics of `wanted` that device `device`'s chip refused, with why (known
    /// after its first collection).
    pub fn refused(&self, device: usize) -> Vec<(String, String)> {
        let state = self.state();
        let Some(chip) = state.chips.get(&device) else {
            return Vec::new();
        };
        state
            .metrics
            .iter()
            .find(|m| m.set.chip == *chip)
            .map(|m| m.set.refused.clone())
            .unwrap_or_default()
    }

    /// Collects `wanted` over `workload` on CUDA device `device`, whose context
    /// `context` must be current on this thread. A failure to set up (no
    /// permission, an unsupported GPU, a metric set that cannot be built) turns
    /// the device's counters off for the rest of the run.
    pub fn collect<E>(
        &self,
        device: usize,
        context: RawContext,
        wanted: &[&str],
        workload: &mut dyn FnMut() -> Result<(), E>,
        trace: &mut dyn FnMut(&str),
    ) -> Result<Collected, CollectError<E>> {
        let mut state = self.state();
        if let Some(error) = state.off.get(&device) {
            return Err(CollectError::Cupti(error.clone()));
        }
        if state.session.is_none() {
            match ProfilerSession::begin(&self.cupti) {
                Ok(session) => state.session = Some(session),
                Err(e) => return Err(turn_off(&mut state, device, e)),
            }
            trace("profiler interface initialized (until the end of the run)");
        }
        let index = match self.chip_metrics(&mut state, device, wanted, trace) {
            Ok(index) => index,
            Err(e) => return Err(turn_off(&mut state, device, e)),
        };
        let chip = &state.metrics[index];
        let collected = collect(&self.cupti, &chip.host, &chip.set, context, workload, trace);
        match collected {
            Err(CollectError::Cupti(e)) if e.is_waiver() => Err(turn_off(&mut state, device, e)),
            other => other,
        }
    }

    /// The index of device `device`'s chip metrics for `wanted`, built on first use.
    fn chip_metrics(
        &self,
        state: &mut State,
        device: usize,
        wanted: &[&str],
        trace: &mut dyn FnMut(&str),
    ) -> CuptiResult<usize> {
        let chip = match state.chips.get(&device) {
            Some(chip) => chip.clone(),
            None => {
                let session = state.session.as_ref().expect("initialized by collect");
                match session.check_device(device as i32) {
                    Err(unsupported @ CuptiError::Unsupported(_)) => return Err(unsupported),
                    // The check is advice: a CUPTI that cannot answer it may still profile.
                    Err(e) => trace(&format!("device {device}: support unknown ({e}); going on")),
                    Ok(()) => {}
                }
                let chip = session.chip_name(device)?;
                trace(&format!("device {device}: chip {chip}"));
                state.chips.insert(device, chip.clone());
                chip
            }
        };
        let same =
            |m: &ChipMetrics| m.set.chip == chip && m.wanted.iter().map(String::as_str).eq(wanted.iter().copied());
        if let Some(index) = state.metrics.iter().position(same) {
            return Ok(index);
        }
        let set = MetricSet::build(&self.cupti, &chip, wanted, trace)?;
        let host = MetricHost::new(&self.cupti, &chip)?;
        state.metrics.push(ChipMetrics {
            wanted: wanted.iter().map(|w| w.to_string()).collect(),
            set,
            host,
        });
        Ok(state.metrics.len() - 1)
    }
}

/// Records `error` as the reason device `device`'s counters are off; returns it.
fn turn_off<E>(state: &mut State, device: usize, error: CuptiError) -> CollectError<E> {
    state.off.insert(device, error.clone());
    CollectError::Cupti(error)
}
