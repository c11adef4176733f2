//! The kernel time limit: every host wait on the GPU goes through one
//! polling loop ([`Watchdog::wait_for_event`] on a recorded event,
//! [`Watchdog::wait_for_stream`] on a whole stream) that queries the driver
//! (`cuEventQuery`/`cuStreamQuery`) against a deadline instead of blocking in
//! `cuEventSynchronize`/`cuStreamSynchronize`, so a kernel that runs too long
//! is reported as [`Error::KernelTimeout`] rather than waited on forever.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cudarc::driver::{CudaEvent, CudaStream, DriverError, sys};

use crate::error::{DriverResultExt, Error, Result};
use crate::run_settings::DEFAULT_KERNEL_TIMEOUT;

/// How long a wait polls without sleeping: short copies and launches are
/// waited for as promptly as a spinning `cuStreamSynchronize` would (the
/// pageable transfers are timed with the host clock around such waits).
const SPIN: Duration = Duration::from_millis(2);
/// After the spin, the sleep between polls is 1% of the time waited so far,
/// at most this: a host-clock timing around a wait (the pageable transfers)
/// then overshoots the GPU's completion by at most 1% (and a long wait costs
/// at most 500 queries a second).
const LONGEST_SLEEP: Duration = Duration::from_millis(2);

/// The time limit of one GPU (shared by its buffers, timers and kernels),
/// the kernel launched last (for the message) and whether work is still
/// running past a limit.
#[derive(Debug)]
pub struct Watchdog {
    limit_ns: AtomicU64,
    overrun: AtomicBool,
    last_launch: Mutex<Option<Arc<str>>>,
}

impl Default for Watchdog {
    fn default() -> Self {
        Self::new(DEFAULT_KERNEL_TIMEOUT)
    }
}

impl Watchdog {
    pub fn new(limit: Duration) -> Self {
        let watchdog = Self {
            limit_ns: AtomicU64::new(0),
            overrun: AtomicBool::new(false),
            last_launch: Mutex::new(None),
        };
        watchdog.set_limit(limit);
        watchdog
    }

    /// The longest one wait may take.
    pub fn limit(&self) -> Duration {
        Duration::from_nanos(self.limit_ns.load(Ordering::Relaxed))
    }

    /// Sets the limit (at least 1 ns).
    pub fn set_limit(&self, limit: Duration) {
        let ns = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX).max(1);
        self.limit_ns.store(ns, Ordering::Relaxed);
    }

    /// Whether a wait gave up while the GPU was still busy and no wait has
    /// completed since: freeing memory or unloading modules now would block
    /// (the driver waits for the running kernel), so drops leak instead.
    pub fn overrun(&self) -> bool {
        self.overrun.load(Ordering::Relaxed)
    }

    /// Records the kernel just enqueued, for the time-out message.
    pub(crate) fn note_launch(&self, kernel: &Arc<str>) {
        if let Ok(mut last) = self.last_launch.lock() {
            *last = Some(kernel.clone());
        }
    }

    fn describe(&self, what: &str) -> String {
        match self.last_launch.lock().ok().and_then(|l| l.clone()) {
            Some(kernel) => format!("{what} (the last kernel launched was {kernel})"),
            None => what.to_string(),
        }
    }

    /// Waits until the work recorded in `event` is done, at most the limit.
    /// `what` names the work waited for, for the error message.
    pub fn wait_for_event(&self, event: &CudaEvent, what: &str) -> Result<()> {
        event.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the event is live for the duration of the borrow.
        self.poll("cuEventQuery", what, || unsafe { sys::cuEventQuery(event.cu_event()) })
    }

    /// Waits until everything enqueued on `stream` so far is done, at most the limit.
    pub fn wait_for_stream(&self, stream: &CudaStream, what: &str) -> Result<()> {
        stream.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the stream is live for the duration of the borrow.
        self.poll("cuStreamQuery", what, || unsafe {
            sys::cuStreamQuery(stream.cu_stream())
        })
    }

    /// The one waiting loop: `query` (`cuEventQuery` or `cuStreamQuery`)
    /// until it stops answering `CUDA_ERROR_NOT_READY` or the limit passes;
    /// spinning first, then sleeping 1% of the time waited between queries.
    fn poll(&self, call: &'static str, what: &str, query: impl Fn() -> sys::CUresult) -> Result<()> {
        let limit = self.limit();
        let start = Instant::now();
        loop {
            match query() {
                sys::CUresult::CUDA_SUCCESS => {
                    self.overrun.store(false, Ordering::Relaxed);
                    return Ok(());
                }
                sys::CUresult::CUDA_ERROR_NOT_READY => {}
                code => {
                    return Err(Error::Driver {
                        call,
                        source: DriverError(code),
                    });
                }
            }
            let waited = start.elapsed();
            if waited >= limit {
                self.overrun.store(true, Ordering::Relaxed);
                return Err(Error::KernelTimeout {
                    what: self.describe(what),
                    limit_s: limit.as_secs_f64(),
                });
            }
            if waited < SPIN {
                std::thread::yield_now();
            } else {
                std::thread::sleep((waited / 100).min(LONGEST_SLEEP).min(limit - waited));
            }
        }
    }
}
