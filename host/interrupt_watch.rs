//! Ctrl-C (SIGINT) and SIGTERM for `ptxsuite run`, taken by one thread with
//! `sigwait` instead of a signal handler.
//!
//! A handler is not enough here. Libraries the run loads install their own:
//! on an H100 the CUDA stack's LLVM-based compilers register handlers for
//! SIGINT and SIGTERM that remove their temporary files, put back the handler
//! they found and raise the signal again, and another library swaps in a
//! handler of its own for a few milliseconds while it initialises. When those
//! registrations interleave, the handler put back is not ours: the run then
//! ended at Ctrl-C with status 130, no message and no report (seen under
//! `timeout -s INT`, `gpu-checks/ctrl_c.sh`). Blocked signals reach no
//! handler, whoever installed it: [`watch_interrupts`] blocks both in the
//! calling thread before any other thread exists (every later thread, the
//! libraries' included, inherits the mask) and waits for them in a thread of
//! its own. Child processes get an empty mask from `std::process`.
//!
//! `timeout` sends its signal to the run and then to the run's process group,
//! so one interruption can arrive twice within microseconds: a second signal
//! counts as a second Ctrl-C only [`SAME_INTERRUPTION`] after the first.

use std::time::{Duration, Instant};

/// Signals closer together than this are one interruption.
pub const SAME_INTERRUPTION: Duration = Duration::from_millis(500);

/// What a signal means for the run, from when the first one came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interruption {
    /// The first: stop after the point in progress.
    First,
    /// Within [`SAME_INTERRUPTION`] of the first: the same interruption again.
    Repeat,
    /// Later: the user asks again, exit at once.
    Second,
}

/// Classifies a signal arriving at `now`, the first having come at `first` (if any).
pub fn classify(first: Option<Instant>, now: Instant) -> Interruption {
    match first {
        None => Interruption::First,
        Some(first) if now.duration_since(first) < SAME_INTERRUPTION => Interruption::Repeat,
        Some(_) => Interruption::Second,
    }
}

/// The signals the watch takes: SIGINT and SIGTERM.
fn interrupt_set() -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set it is given; sigaddset adds valid signal numbers.
    unsafe {
        let mut set = std::mem::zeroed::<libc::sigset_t>();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        set
    }
}

/// Blocks SIGINT and SIGTERM in the calling thread and starts a thread that
/// waits for them and calls `on_signal` with each one's [`Interruption`].
/// Call it before any other thread is started, so that every thread inherits
/// the mask; `Err` says why the signals could not be taken (they then keep
/// their default action).
pub fn watch_interrupts(mut on_signal: impl FnMut(Interruption) + Send + 'static) -> Result<(), String> {
    let set = interrupt_set();
    // SAFETY: `set` is an initialised signal set; a null old-mask pointer is allowed.
    let blocked = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if blocked != 0 {
        return Err(format!(
            "cannot block SIGINT: {}",
            std::io::Error::from_raw_os_error(blocked)
        ));
    }
    let spawned = std::thread::Builder::new().name("ctrl-c".into()).spawn(move || {
        let mut first = None;
        loop {
            let mut signal = 0;
            // SAFETY: `set` is initialised and `signal` is a valid place for the signal number.
            if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
                continue;
            }
            let now = Instant::now();
            let kind = classify(first, now);
            if kind == Interruption::First {
                first = Some(now);
            }
            on_signal(kind);
        }
    });
    match spawned {
        Ok(_) => Ok(()),
        Err(e) => {
            // SAFETY: as above; the signals get their default action back.
            unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
            Err(format!("cannot start the Ctrl-C thread: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{Interruption, SAME_INTERRUPTION, classify};

    #[test]
    fn a_signal_twice_at_once_is_one_interruption_and_later_a_second() {
        let t0 = Instant::now();
        assert_eq!(classify(None, t0), Interruption::First);
        assert_eq!(classify(Some(t0), t0 + Duration::from_micros(30)), Interruption::Repeat);
        assert_eq!(
            classify(Some(t0), t0 + SAME_INTERRUPTION - Duration::from_millis(1)),
            Interruption::Repeat
        );
        assert_eq!(classify(Some(t0), t0 + SAME_INTERRUPTION), Interruption::Second);
        assert_eq!(classify(Some(t0), t0 + Duration::from_secs(3)), Interruption::Second);
    }
}
