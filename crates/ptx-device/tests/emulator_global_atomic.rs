//! The global float atomics (`red_add`, `atomic_add`) in the CPU emulator:
//! no addition is lost when many threads of many blocks contend for a word,
//! each `atomic_add` sees a distinct old value, two partials added into zero
//! equal their sum bit for bit, and a stray index is a fault like a store's.

use ptx_device::emulator::{Emulator, FaultKind, LaunchConfig};
use ptx_device::{Dim3, GlobalMutPtr};
use ptx_device_atomic_kernels::{add_partials, count_into_bins, take_tickets};

#[test]
fn many_threads_adding_into_a_few_bins_lose_nothing() {
    let (blocks, threads, bin_count) = (6u32, 256u32, 5u32);
    let mut bins = vec![0.0f32; bin_count as usize];
    let mut emulator = Emulator::new();
    let bins_ptr = emulator.global_mut(&mut bins);
    let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(threads), 0);
    // SAFETY: bin_count = 5 ≥ 1 and `bins` holds 5 f32s.
    emulator
        .launch(config, || unsafe { count_into_bins(bins_ptr, bin_count) })
        .unwrap();
    drop(emulator);

    // The reference, counted on the host in integers.
    let mut expected = vec![0u64; bin_count as usize];
    for i in 0..blocks * threads {
        expected[(i % bin_count) as usize] += u64::from(1 + i % 3);
    }
    let expected: Vec<f32> = expected.iter().map(|&sum| sum as f32).collect();
    assert_eq!(bins, expected);
    assert_eq!(
        bins.iter().sum::<f32>(),
        3072.0,
        "6 · 256 threads adding 1, 2, 3 in turn"
    );
}

#[test]
fn atomic_add_hands_every_thread_a_distinct_old_value() {
    let (blocks, threads) = (4u32, 128u32);
    let n = (blocks * threads) as usize;
    let mut tickets = vec![-1.0f32; n];
    let mut counter = vec![0.0f32];
    let mut emulator = Emulator::new();
    let (tickets_ptr, counter_ptr) = (emulator.global_mut(&mut tickets), emulator.global_mut(&mut counter));
    let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(threads), 0);
    // SAFETY: one counter; `tickets` holds grid × block = 512 f32s.
    emulator
        .launch(config, || unsafe { take_tickets(tickets_ptr, counter_ptr) })
        .unwrap();
    drop(emulator);

    assert_eq!(counter, [n as f32]);
    let mut seen: Vec<u32> = tickets.iter().map(|&t| t as u32).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..n as u32).collect::<Vec<_>>(), "each old value exactly once");
    // Blocks run in order: every ticket of block b lies in [b · 128, (b + 1) · 128).
    for (i, &ticket) in tickets.iter().enumerate() {
        assert_eq!(
            ticket as usize / threads as usize,
            i / threads as usize,
            "ticket {ticket} of thread {i}"
        );
    }
}

/// `add_partials` in the emulator: two blocks, block 0 adding `first[i]` and
/// block 1 `second[i]` into element `i` of sums that start at +0.
fn sums_of_partials(first: &[f32], second: &[f32]) -> Vec<f32> {
    let n = first.len();
    assert_eq!(second.len(), n);
    let partials: Vec<f32> = first.iter().chain(second).copied().collect();
    let mut sums = vec![0.0f32; n];
    let mut emulator = Emulator::new();
    let (sums_ptr, partials_ptr) = (emulator.global_mut(&mut sums), emulator.global(&partials));
    let config = LaunchConfig::new(Dim3::x(2), Dim3::x(n as u32), 0);
    // SAFETY: `sums` holds blockDim.x = n f32s, `partials` grid × block = 2n.
    emulator
        .launch(config, || unsafe { add_partials(sums_ptr, partials_ptr) })
        .unwrap();
    drop(emulator);
    sums
}

/// Two partials per element, chosen so that their sum rounds: (0 + a) + b must
/// be a + b, the one rounding, whichever partial lands first.
#[test]
fn two_partials_added_into_zero_equal_their_sum_bit_for_bit() {
    let n = 64usize;
    let a: Vec<f32> = (0..n).map(|i| 1.0 + i as f32 * f32::EPSILON * 0.75).collect();
    let b: Vec<f32> = (0..n).map(|i| (i as f32 + 0.1).sqrt() * 1e-3 - 0.031).collect();
    for (first, second) in [(&a, &b), (&b, &a)] {
        let sums = sums_of_partials(first, second);
        for i in 0..n {
            assert_eq!(sums[i].to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
        }
    }
    // The test can fail: a third partial would make the sum depend on the order.
    let rounded = (0..n).filter(|&i| (a[i] + b[i]) - a[i] != b[i]).count();
    assert!(rounded > 0, "the partials were chosen so that some sums round");
}

#[test]
fn an_addition_outside_the_buffer_is_a_fault() {
    let mut bins = vec![0.0f32; 4];
    let mut emulator = Emulator::new();
    let bins_ptr: GlobalMutPtr<f32> = emulator.global_mut(&mut bins);
    let config = LaunchConfig::new(Dim3::x(1), Dim3::x(1), 0);
    // SAFETY: none; element 4 of 4 is out of bounds on purpose and the emulator checks it.
    let error = emulator
        .launch(config, || unsafe { bins_ptr.red_add(4, 1.0) })
        .unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(
            kind,
            FaultKind::GlobalOutOfBounds {
                write: true,
                index: 4,
                ..
            }
        )),
        "{error}"
    );
    let read_only = vec![0.0f32; 4];
    let mut emulator = Emulator::new();
    // A read-only buffer viewed as writable: the atomic is a write and must be refused.
    let read_only_ptr = GlobalMutPtr::from_raw(emulator.global(&read_only).as_raw().cast_mut());
    // SAFETY: none; the buffer is registered read-only on purpose.
    let error = emulator
        .launch(config, || unsafe {
            read_only_ptr.atomic_add(0, 1.0);
        })
        .unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(kind, FaultKind::WriteToReadOnly { index: 0 })),
        "{error}"
    );
}

/// The GPU's `REDG/ATOMG.ADD.F32.FTZ.RN`: subnormal partials and sums flush to
/// zero, and two `-0.0` partials added into `+0.0` give `+0.0`.
#[test]
fn subnormals_flush_and_negative_zeros_do_not_survive_the_zero() {
    let tiny = f32::MIN_POSITIVE;
    // (first partial, second partial, expected sum in a zeroed element)
    let cases = [
        (tiny / 2.0, 0.0, 0.0),    // a subnormal input flushes
        (-tiny / 4.0, 1.0, 1.0),   // ... and adds nothing
        (1.5 * tiny, -tiny, 0.0),  // a subnormal result flushes
        (-1.5 * tiny, tiny, -0.0), // ... to a zero of its sign
        (-0.0, -0.0, 0.0),         // +0 + -0 = +0, then +0 + -0 = +0
        (tiny, tiny, 2.0 * tiny),  // normal numbers are added as usual
    ];
    let first: Vec<f32> = cases.iter().map(|c| c.0).collect();
    let second: Vec<f32> = cases.iter().map(|c| c.1).collect();
    let sums = sums_of_partials(&first, &second);
    for (sum, (a, b, expected)) in sums.iter().zip(cases) {
        assert_eq!(sum.to_bits(), expected.to_bits(), "{a:e} + {b:e} into +0 gave {sum:e}");
    }
}
