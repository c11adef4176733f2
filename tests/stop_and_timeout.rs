//! The kernel time limit's settings and message, without a GPU.

use std::time::Duration;

use ptxsuite::Error;
use ptxsuite::experiments::RunSettings;
use ptxsuite::gpu::{DEFAULT_KERNEL_TIMEOUT, Watchdog};

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
