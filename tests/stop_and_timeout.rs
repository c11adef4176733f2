//! The run's stop flag (Ctrl-C) and the kernel time limit's settings and
//! message, without a GPU.

use std::time::Duration;

use ptxsuite::Error;
use ptxsuite::gpu::Watchdog;
use ptxsuite::run_settings::{DEFAULT_KERNEL_TIMEOUT, RunSettings};
use ptxsuite::stop_signal::{STOPPED_NOTE_PREFIX, StopSignal};

/// A measurement loop as the experiments write it: check, then measure one point.
fn measure_points(stop: &StopSignal, planned: usize, mut on_point: impl FnMut(usize)) -> Vec<usize> {
    let mut measured = Vec::new();
    for point in 0..planned {
        if stop.stop_before(point, planned) {
            break;
        }
        on_point(point);
        measured.push(point);
    }
    measured
}

#[test]
fn the_first_request_stops_and_the_second_says_exit_now() {
    let stop = StopSignal::new();
    assert!(!stop.is_requested());
    assert!(stop.request(), "first Ctrl-C: stop after the point");
    assert!(stop.is_requested());
    assert!(!stop.request(), "second Ctrl-C: exit at once");
    assert!(!stop.request());
}

#[test]
fn a_stop_during_a_point_ends_the_loop_after_that_point() {
    let stop = StopSignal::new();
    let settings = RunSettings::default();
    let measured = measure_points(&stop, 10, |point| {
        if point == 2 {
            stop.request(); // Ctrl-C while point 2 is measured
        }
    });
    assert_eq!(measured, [0, 1, 2], "point 2 is finished, no later one starts");
    let note = stop.take_note().expect("the loop that stopped is recorded");
    assert_eq!(note, "stopped after 3 of 10 points (the run was interrupted)");
    assert!(note.starts_with(STOPPED_NOTE_PREFIX));
    assert!(stop.take_note().is_none(), "the note is taken once");
    assert!(!settings.stop.is_requested(), "other signals are independent");
}

#[test]
fn later_loops_of_a_stopped_experiment_add_to_the_count() {
    let stop = StopSignal::new();
    let first = measure_points(&stop, 33, |point| {
        if point == 4 {
            stop.request();
        }
    });
    let second = measure_points(&stop, 33, |_| unreachable!("stopped before its first point"));
    assert_eq!((first.len(), second.len()), (5, 0));
    assert_eq!(
        stop.take_note().unwrap(),
        "stopped after 5 of 66 points (the run was interrupted)"
    );
}

#[test]
fn without_a_request_loops_run_to_the_end_and_leave_no_note() {
    let stop = StopSignal::new();
    assert_eq!(measure_points(&stop, 4, |_| {}).len(), 4);
    assert!(stop.take_note().is_none());
}

#[test]
fn settings_share_the_signal_and_compare_by_value() {
    let settings = RunSettings::default();
    let copy = settings.clone();
    settings.stop.request();
    assert!(
        copy.stop.is_requested(),
        "clones share the flag (the Ctrl-C handler holds one)"
    );
    assert_eq!(settings, RunSettings::default(), "the flag is not a setting");
    let json = serde_json::to_string(&settings).unwrap();
    assert!(!json.contains("stop"), "{json}");
    assert!(json.contains("\"kernel_timeout_s\":60"), "{json}");
}

#[test]
fn kernel_timeout_setting_is_validated_and_converted() {
    let with = |s: f64| RunSettings {
        kernel_timeout_s: s,
        ..RunSettings::default()
    };
    assert_eq!(RunSettings::default().kernel_timeout(), DEFAULT_KERNEL_TIMEOUT);
    assert_eq!(with(0.25).kernel_timeout(), Duration::from_millis(250));
    assert!(with(0.001).validate().is_ok());
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e9] {
        let err = with(bad).validate().unwrap_err().to_string();
        assert!(
            err.contains("--kernel-timeout") && err.contains("out of range"),
            "{err}"
        );
    }
}

#[test]
fn watchdog_limit_is_shared_and_starts_clear() {
    let watchdog = Watchdog::default();
    assert_eq!(watchdog.limit(), DEFAULT_KERNEL_TIMEOUT);
    watchdog.set_limit(Duration::from_millis(200));
    assert_eq!(watchdog.limit(), Duration::from_millis(200));
    watchdog.set_limit(Duration::ZERO);
    assert_eq!(
        watchdog.limit(),
        Duration::from_nanos(1),
        "a zero limit would never poll"
    );
    assert!(!watchdog.overrun());
}

#[test]
fn timeout_message_says_what_the_limit_was_and_how_to_raise_it() {
    let error = Error::KernelTimeout {
        what: "the work queued on the GPU (the last kernel launched was spin_wait)".into(),
        limit_s: 0.2,
    };
    let text = error.to_string();
    assert!(text.contains("spin_wait"), "{text}");
    assert!(text.contains("0.2 s"), "{text}");
    assert!(text.contains("--kernel-timeout"), "{text}");
}
