//! CUPTI, NVIDIA's profiling interface, loaded at run time: the GPU's
//! hardware counters over a workload, through the range profiler and the
//! profiler host API of CUDA 12.6 and later (the host metric library that
//! replaced direct `NVPW_*` calls).
//!
//! A sibling of [`crate::gpu`], [`crate::opencl`] and [`crate::nvml`], never
//! imported by them. `libcupti.so` is opened with `dlopen` (libloading) from
//! `$PTXSUITE_CUPTI` or the loader path and its entry points resolved by
//! name; nothing is needed to build. RAII types for what CUPTI hands out
//! (the profiler session, host objects, range profilers), typed errors that
//! tell a reason to waive the counters (no library, no permission, an
//! unsupported GPU) from a failure. It knows metric names, not what the
//! suite makes of them (that is [`crate::counters`]).
//!
//! The sequence of one collection ([`collect`]; [`CounterCollector`] keeps
//! the first three steps for the rest of the run): initialize the profiler
//! interface; the device's chip; a host object for the chip, the metrics
//! scheduled into a configuration image; the range profiler enabled on the
//! context, a counter-data image, the configuration (user range, user
//! replay); per pass: the workload once outside the range, then start, push,
//! the workload, pop, stop, until CUPTI says every pass is submitted; decode;
//! evaluate the range into metric values; disable.

mod collection;
mod counter_collector;
mod cupti_error;
mod ffi;
mod library;
mod metric_host;
mod metric_set;
mod profiler_session;
mod range_profiler;

pub use collection::{CollectError, Collected, MAX_PASSES, collect};
pub use counter_collector::CounterCollector;
pub use cupti_error::{CuptiError, CuptiResult};
pub use ffi::RawContext;
pub use library::{CUPTI_LIBRARY_CANDIDATES, CUPTI_PATH_VARIABLE, Cupti};
pub use metric_host::{MetricHost, MetricProperties};
pub use metric_set::MetricSet;
pub use profiler_session::ProfilerSession;
pub use range_profiler::{PassEnd, RangeProfiler, range_count};
