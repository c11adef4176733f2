//! The latency kernels in the CPU emulator: the pointer chase ends where the
//! ring says (a ring in host memory, laid out by the launcher's own
//! `pointer_ring_words`), the shared-memory chase likewise, the FMA chain
//! gives the reference's bits, and a chase leaving its ring is a fault.

use kernels_gpu::latency::{FMA_LATENCY_UNROLL, LATENCY_OUT_WORDS, fma_latency, pointer_chase, shared_pointer_chase};
use ptxsuite::device::{Dim3, GlobalPtr};
use ptxsuite::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};
use ptxsuite::{launchers, reference};

fn one_thread() -> LaunchConfig {
    LaunchConfig::new(Dim3::x(1), Dim3::x(1), 0)
}

/// Chases `words` (a ring at its own host address) from word `start_word`.
fn chase(words: &[u64], start_word: usize, warmup: u32, count: u32) -> Result<[u64; LATENCY_OUT_WORDS], EmulatorError> {
    let mut out = [0u64; LATENCY_OUT_WORDS];
    {
        let mut emu = Emulator::new();
        emu.global(words);
        let out_ptr = emu.global_mut(&mut out);
        let start = GlobalPtr::from_raw(words[start_word..].as_ptr());
        // SAFETY: the emulator checks every access.
        emu.launch(one_thread(), || unsafe { pointer_chase(start, warmup, count, out_ptr) })?;
    }
    Ok(out)
}

#[test]
fn pointer_chase_ends_at_the_slot_the_ring_says() {
    for (slots, slot_bytes) in [(1usize, 8u64), (7, 128), (64, 256)] {
        let successors = reference::chase_successors(slots, 11);
        let mut words = vec![0u64; slots * slot_bytes as usize / 8];
        let base = words.as_ptr() as u64;
        words.copy_from_slice(&launchers::pointer_ring_words(base, slot_bytes, &successors));
        let slot_words = slot_bytes as usize / 8;
        for (start, warmup, count) in [(0u32, 0u32, 1u32), (3 % slots as u32, 5, 17), (0, 2, 200)] {
            let out = chase(&words, start as usize * slot_words, warmup, count).unwrap();
            let end = reference::follow_successors(&successors, start, (warmup + count) as u64);
            assert_eq!(out[0], base + end as u64 * slot_bytes, "{slots} slots from {start}");
            assert!(out[1] > 0, "cycles");
        }
    }
}

#[test]
fn a_chase_that_leaves_its_ring_is_a_fault() {
    let successors = reference::chase_successors(4, 1);
    let mut words = vec![0u64; 4];
    let base = words.as_ptr() as u64;
    words.copy_from_slice(&launchers::pointer_ring_words(base, 8, &successors));
    words[successors[0] as usize] = base + 4096; // slot 0's successor now points past the ring
    let err = chase(&words, 0, 0, 3).unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::GlobalOutOfBounds { .. })),
        "{err}"
    );
}

#[test]
fn shared_pointer_chase_ends_at_the_slot_the_ring_says() {
    let slots = 300;
    let links = reference::chase_successors(slots, 5);
    for (start, warmup, count) in [(0u32, 0u32, 1u32), (17, 300, 45), (299, 1, 600)] {
        let mut out = [0u64; LATENCY_OUT_WORDS];
        {
            let mut emu = Emulator::new();
            let links_ptr = emu.global(&links);
            let out_ptr = emu.global_mut(&mut out);
            let config = LaunchConfig::new(Dim3::x(1), Dim3::x(64), slots * 4);
            // SAFETY: the emulator checks every access.
            emu.launch(config, || unsafe {
                shared_pointer_chase(links_ptr, slots as u32, start, warmup, count, out_ptr)
            })
            .unwrap();
        }
        let end = reference::follow_successors(&links, start, (warmup + count) as u64);
        assert_eq!(out[0], end as u64, "from {start}, {warmup} + {count} steps");
        assert!(out[1] > 0);
    }
}

#[test]
fn fma_latency_gives_the_reference_bits() {
    for (x, m, a, count) in [
        (1.0f32, 0.999_9f32, 0.001f32, 3u32),
        (-2.5, 1.000_1, -0.25, 1),
        (0.5, 0.5, 0.5, 0),
    ] {
        let mut out = [0u64; LATENCY_OUT_WORDS];
        {
            let mut emu = Emulator::new();
            let out_ptr = emu.global_mut(&mut out);
            // SAFETY: three output words.
            emu.launch(one_thread(), || unsafe { fma_latency(x, m, a, count, out_ptr) })
                .unwrap();
        }
        let expected = reference::fma_latency(x, m, a, (count * FMA_LATENCY_UNROLL) as u64);
        assert_eq!(out[0], expected.to_bits() as u64, "x {x}, {count} trips");
    }
}
