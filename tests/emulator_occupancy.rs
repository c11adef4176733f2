//! The occupancy kernels in the CPU emulator: the guarded copy at block sizes
//! that are not multiples of 32 and element counts that are not multiples of
//! the block, with dynamic shared memory it does not touch; the per-thread
//! chase against the ring.

use kernels_gpu::occupancy::{occupancy_chase, occupancy_copy};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::reference;

const SENTINEL: f32 = -1.0;

#[test]
fn guarded_copy_copies_exactly_n_elements_at_any_block_size() {
    for (block, n) in [(48u32, 1000usize), (96, 97), (200, 1), (32, 64), (1000, 1001)] {
        let input: Vec<f32> = (0..n + 50).map(|i| i as f32 + 0.5).collect();
        let mut output = vec![SENTINEL; n + 50];
        {
            let mut emu = Emulator::new();
            let inp = emu.global(&input);
            let out = emu.global_mut(&mut output);
            let blocks = (n as u32).div_ceil(block);
            let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), 4096);
            // SAFETY: the emulator checks every access.
            emu.launch(config, || unsafe { occupancy_copy(out, inp, n as u64) })
                .unwrap();
        }
        let mut expected = vec![SENTINEL; n + 50];
        reference::copy_prefix(&mut expected, &input, n, 0);
        assert_eq!(output, expected, "block {block}, n {n}");
    }
}

#[test]
fn per_thread_chase_ends_where_the_ring_says() {
    let slots = 300;
    let links = reference::chase_successors(slots, 9);
    for (block, threads, count) in [(96u32, 250u32, 7u32), (200, 300, 1), (64, 1, 30)] {
        let mut out = vec![u32::MAX; slots];
        {
            let mut emu = Emulator::new();
            let links_ptr = emu.global(&links);
            let out_ptr = emu.global_mut(&mut out);
            let config = LaunchConfig::new(Dim3::x(threads.div_ceil(block)), Dim3::x(block), 0);
            // SAFETY: the emulator checks every access.
            emu.launch(config, || unsafe {
                occupancy_chase(links_ptr, threads, count, out_ptr)
            })
            .unwrap();
        }
        for (t, &end) in out.iter().enumerate() {
            let expected = if t < threads as usize {
                reference::follow_successors(&links, t as u32, count as u64)
            } else {
                u32::MAX
            };
            assert_eq!(end, expected, "thread {t} of {threads}, block {block}");
        }
    }
}
