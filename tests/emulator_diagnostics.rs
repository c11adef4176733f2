//! The diagnostic kernel `spin_wait` in the CPU emulator: it waits as long
//! as asked (the emulator's timer is the host clock) and touches no memory.

use std::time::{Duration, Instant};

use kernels_gpu::diagnostics::spin_wait;
use ptxsuite::device::{Dim3, global_timer_ns};
use ptxsuite::emulator::{Emulator, LaunchConfig};

#[test]
fn spin_wait_waits_at_least_the_duration() {
    let emu = Emulator::new();
    let wait = Duration::from_millis(30);
    let start = Instant::now();
    // SAFETY: spin_wait touches no memory.
    emu.launch(LaunchConfig::new(Dim3::x(2), Dim3::x(4), 0), || unsafe {
        spin_wait(wait.as_nanos() as u64)
    })
    .unwrap();
    let elapsed = start.elapsed();
    assert!(elapsed >= wait, "returned after {elapsed:?}");
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

#[test]
fn spin_wait_of_zero_returns_at_once() {
    let emu = Emulator::new();
    let start = Instant::now();
    // SAFETY: as above.
    emu.launch(LaunchConfig::new(Dim3::x(1), Dim3::x(32), 0), || unsafe {
        spin_wait(0)
    })
    .unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn global_timer_counts_nanoseconds_forward() {
    let a = global_timer_ns();
    std::thread::sleep(Duration::from_millis(5));
    let b = global_timer_ns();
    assert!(b - a >= 5_000_000, "{a} -> {b}");
}
