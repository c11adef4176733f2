//! On a real GPU: the kernel time limit (a `spin_wait` past it is a
//! `KernelTimeout`, and the context works again once the spin ends) and
//! `ptxsuite selftest`'s checks.
//!
//! Without a CUDA driver or device each test prints `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use gpu_support::gpu_or_skip;
use std::time::{Duration, Instant};

use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::selftest::{SELF_TESTS, Status, run_all, table};
use ptxsuite::testbed::{ImplementationSet, Testbed};
use ptxsuite::{Error, launchers};

#[test]
fn gpu_spin_past_the_limit_is_a_kernel_timeout_and_the_context_recovers() {
    let Some(dut) = gpu_or_skip("gpu_spin_past_the_limit_is_a_kernel_timeout_and_the_context_recovers") else {
        return;
    };
    dut.gpu().set_kernel_timeout(Duration::from_millis(200));
    let start = Instant::now();
    launchers::spin_wait(&dut, Duration::from_secs(2)).unwrap();
    let err = dut
        .gpu()
        .synchronize()
        .expect_err("a 2 s spin under a 0.2 s limit must time out");
    let waited = start.elapsed();
    match &err {
        Error::KernelTimeout { what, limit_s } => {
            assert_eq!(*limit_s, 0.2);
            assert!(what.contains("spin_wait"), "the message names the kernel: {what}");
        }
        other => panic!("expected KernelTimeout, got {other}"),
    }
    assert!(err.to_string().contains("--kernel-timeout"), "{err}");
    assert!(
        waited >= Duration::from_millis(200) && waited < Duration::from_millis(1500),
        "gave up after {waited:?}"
    );
    assert!(dut.gpu().watchdog().overrun());

    // The spin ends; with a longer limit the same context works again.
    dut.gpu().set_kernel_timeout(Duration::from_secs(30));
    dut.gpu().synchronize().unwrap();
    assert!(!dut.gpu().watchdog().overrun());
    let data: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    let buffer = DeviceBuffer::from_host(dut.gpu(), &data).unwrap();
    assert_eq!(buffer.to_host().unwrap(), data);
}

#[test]
fn gpu_spin_within_the_limit_waits_it_out() {
    let Some(dut) = gpu_or_skip("gpu_spin_within_the_limit_waits_it_out") else {
        return;
    };
    dut.gpu().set_kernel_timeout(Duration::from_secs(10));
    let start = Instant::now();
    launchers::spin_wait(&dut, Duration::from_millis(100)).unwrap();
    dut.gpu().synchronize().unwrap();
    assert!(start.elapsed() >= Duration::from_millis(95), "{:?}", start.elapsed());
}

#[test]
fn gpu_selftest_passes() {
    let Some(dut) = gpu_or_skip("gpu_selftest_passes") else {
        return;
    };
    let testbed = Testbed::of(vec![dut], ImplementationSet::default()).unwrap();
    let outcomes = run_all(&testbed, SELF_TESTS);
    let text = table(&outcomes);
    eprintln!("{text}");
    assert_eq!(outcomes.len(), SELF_TESTS.len());
    assert!(
        outcomes.iter().all(|o| o.status != Status::Failed),
        "self-test failures:\n{text}"
    );
    let time_limit = outcomes.iter().find(|o| o.name.contains("time limit")).unwrap();
    assert_eq!(time_limit.status, Status::Ok, "{text}");
}

#[test]
fn gpu_allocation_beyond_free_memory_is_refused_with_a_message() {
    let Some(dut) = gpu_or_skip("gpu_allocation_beyond_free_memory_is_refused_with_a_message") else {
        return;
    };
    let total = dut.info().total_memory_bytes as usize;
    let Err(err) = DeviceBuffer::<f32>::uninit(dut.gpu(), total / 4 + 1) else {
        panic!("a buffer larger than the whole GPU was allocated");
    };
    assert!(matches!(err, Error::OutOfDeviceMemory { .. }), "{err:?}");
    assert!(err.to_string().contains("MiB"), "the message gives the sizes: {err}");
    // The GPU is still usable afterwards.
    let small = DeviceBuffer::from_host(dut.gpu(), &[1.0f32, 2.0]).unwrap();
    assert_eq!(small.to_host().unwrap(), [1.0, 2.0]);
}
