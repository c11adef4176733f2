//! Stopping a run between points (Ctrl-C): one flag that the measurement
//! loops check before each point. What was measured is kept, and the loop
//! that stopped records how far it got for the report's note.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A shared stop request. Clones share the flag; it starts unset.
#[derive(Clone, Default)]
pub struct StopSignal(Arc<StopState>);

#[derive(Default)]
struct StopState {
    requested: AtomicBool,
    /// (points measured, points planned) summed over the loops that stopped
    /// since the last [`StopSignal::take_note`].
    cut: Mutex<Option<(usize, usize)>>,
}

impl StopSignal {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the loops to stop after the point in progress. Returns `true` for
    /// the first request, `false` for any later one (Ctrl-C handlers exit at
    /// once on the second).
    pub fn request(&self) -> bool {
        !self.0.requested.swap(true, Ordering::SeqCst)
    }

    /// Whether a stop was requested.
    pub fn is_requested(&self) -> bool {
        self.0.requested.load(Ordering::SeqCst)
    }

    /// For a measurement loop, before point `done` (0-based) of `planned`:
    /// `true` means stop now, keeping the `done` points measured; the cut is
    /// recorded for [`take_note`](Self::take_note).
    pub fn stop_before(&self, done: usize, planned: usize) -> bool {
        if !self.is_requested() {
            return false;
        }
        if let Ok(mut cut) = self.0.cut.lock() {
            let (d, p) = cut.unwrap_or((0, 0));
            *cut = Some((d + done, p + planned));
        }
        true
    }

    /// "stopped after N of M points" for the loops that stopped since the
    /// last call, or `None` if none did; clears the record.
    pub fn take_note(&self) -> Option<String> {
        let cut = self.0.cut.lock().ok()?.take()?;
        Some(stopped_note(cut.0, cut.1))
    }
}

/// The note an interrupted experiment carries.
pub fn stopped_note(done: usize, planned: usize) -> String {
    format!("{STOPPED_NOTE_PREFIX} {done} of {planned} points (the run was interrupted)")
}

/// How [`stopped_note`] begins, so a report can tell which experiments were cut short.
pub const STOPPED_NOTE_PREFIX: &str = "stopped after";

impl std::fmt::Debug for StopSignal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopSignal")
            .field("requested", &self.is_requested())
            .finish()
    }
}

/// A stop request is not a setting: any two signals compare equal, so
/// settings (and reports holding them) compare by their values only.
impl PartialEq for StopSignal {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
