//! One collection: a workload (a launch closure) run under the range
//! profiler as one user range, replayed by us once per pass the metric set
//! needs, then decoded and evaluated into metric values.
//!
//! Before each pass the workload runs once outside the range, so that every
//! measured run starts from the state the same run leaves (the L2 holding
//! its dirty lines, as between timed launches), not from whatever ran before.

use super::cupti_error::CuptiError;
use super::ffi::RawContext;
use super::library::Cupti;
use super::metric_host::MetricHost;
use super::metric_set::MetricSet;
use super::range_profiler::{RangeProfiler, range_count};

/// The most passes a collection replays (far above any metric set's needs).
pub const MAX_PASSES: usize = 64;

/// The name of the one range each collection pushes.
const RANGE_NAME: &std::ffi::CStr = c"ptxsuite";

/// What one collection gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Collected {
    /// Each scheduled metric with its value over the range (one run of the workload).
    pub values: Vec<(String, f64)>,
    /// Passes replayed.
    pub passes: usize,
    /// Metrics asked for that the chip could not give, with why.
    pub refused: Vec<(String, String)>,
}

impl Collected {
    pub fn value(&self, metric: &str) -> Option<f64> {
        self.values.iter().find(|(m, _)| m == metric).map(|(_, v)| *v)
    }
}

/// Why a collection ended without values: CUPTI, or the workload itself.
#[derive(Debug)]
pub enum CollectError<E> {
    Cupti(CuptiError),
    Workload(E),
}

impl<E> From<CuptiError> for CollectError<E> {
    fn from(e: CuptiError) -> Self {
        Self::Cupti(e)
    }
}

/// Runs `workload` under the range profiler on `context` (which must be
/// current on this thread, and must be the context `workload` launches on)
/// and evaluates `set`'s metrics with `host` (a host object of the same chip).
///
/// `workload` must run the same GPU work every time and wait for it
/// (user replay: CUPTI does not save or restore memory between passes).
/// `trace` hears each step.
pub fn collect<E>(
    cupti: &Cupti,
    host: &MetricHost,
    set: &MetricSet,
    context: RawContext,
    workload: &mut dyn FnMut() -> Result<(), E>,
    trace: &mut dyn FnMut(&str),
) -> Result<Collected, CollectError<E>> {
    // Declared before the profiler, so that it outlives it (CUPTI keeps its address until disabled).
    let mut counter_data: Vec<u8>;
    let profiler = RangeProfiler::enable(cupti, context)?;
    trace("range profiler enabled");
    counter_data = profiler.counter_data_image(&set.metrics, 1)?;
    trace(&format!("counter-data image: {} bytes", counter_data.len()));
    profiler.set_config(&set.config, &mut counter_data, 1)?;
    trace("configured: user range, user replay, 1 range, 1 nesting level");
    let mut passes = 0;
    loop {
        if passes == MAX_PASSES {
            return Err(CuptiError::Unexpected(format!(
                "the range profiler still wanted passes after {MAX_PASSES} (the metric set needs {})",
                set.passes
            ))
            .into());
        }
        workload().map_err(CollectError::Workload)?;
        profiler.start()?;
        if let Err(e) = profiler.push(RANGE_NAME) {
            let _ = profiler.stop();
            return Err(e.into());
        }
        let ran = workload();
        let popped = profiler.pop();
        let stopped = profiler.stop();
        ran.map_err(CollectError::Workload)?;
        popped?;
        let end = stopped?;
        passes += 1;
        trace(&format!(
            "pass {} ended (CUPTI's pass index {}, all submitted: {})",
            passes, end.pass_index, end.all_passes_submitted
        ));
        if end.all_passes_submitted {
            break;
        }
    }
    let dropped = profiler.decode()?;
    if dropped > 0 {
        return Err(CuptiError::Unexpected(format!("the range profiler dropped {dropped} range(s)")).into());
    }
    let ranges = range_count(cupti, &counter_data)?;
    trace(&format!("decoded: {ranges} range(s)"));
    if ranges == 0 {
        return Err(CuptiError::Unexpected("the counter data holds no range: nothing was collected".into()).into());
    }
    let values = host.evaluate(&counter_data, 0, &set.metrics)?;
    drop(profiler);
    trace("range profiler disabled");
    Ok(Collected {
        values: set.metrics.iter().cloned().zip(values).collect(),
        passes,
        refused: set.refused.clone(),
    })
}
