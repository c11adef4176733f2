//! The API kernels (tests/api-kernels, written as Rust-CUDA users write
//! kernels) in the emulator, against references computed here from what
//! each operation means in CUDA C's documentation.

use std::sync::atomic::Ordering;

use cuda_std::atomic::{AtomicF32, SystemAtomicF64};
use cuda_std::emulator::{Dim3, FaultKind, HostPointer, LaunchConfig, launch};
use cuda_std_api_kernels as api;

fn config(grid: Dim3, block: Dim3, shared_bytes: usize) -> LaunchConfig {
    LaunchConfig::new(grid, block, shared_bytes)
}

#[test]
fn indices_number_every_thread_of_a_3d_launch_once() {
    let (grid, block) = (Dim3::new(3, 2, 2), Dim3::new(8, 4, 2));
    let threads = (grid.count() * block.count()) as usize;
    let mut out = vec![u32::MAX; 8 * threads];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: 8 words for each of the launch's threads.
    launch(config(grid, block, 0), || unsafe { api::indices(pointer.get()) }).unwrap();
    let mut seen = vec![false; threads];
    for i in 0..threads {
        let words = &out[8 * i..8 * i + 8];
        assert_eq!(words[0] as usize, i, "index() wrote into its own slot");
        seen[i] = true;
        // index() numbers blocks x fastest, then threads x fastest: invert it.
        let (block_number, thread_number) = (i / 64, i % 64);
        let (bx, by, bz) = (block_number % 3, block_number / 3 % 2, block_number / 6);
        let (tx, ty, tz) = (thread_number % 8, thread_number / 8 % 4, thread_number / 32);
        assert_eq!(words[1] as usize, bx * 8 + tx, "index_1d of thread {i}");
        assert_eq!(
            (words[2] as usize, words[3] as usize),
            (bx * 8 + tx, by * 4 + ty),
            "index_2d of thread {i}"
        );
        assert_eq!(words[4] as usize, bz * 2 + tz, "index_3d's z of thread {i}");
        assert_eq!(words[5], (i == 0) as u32, "first() of thread {i}");
        assert_eq!((words[6], words[7]), (32, 64));
    }
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn barrier_votes_count_and_combine_each_blocks_predicates() {
    let block = 96;
    let predicate: Vec<u32> = (0..4 * block)
        .map(|i| (i % 7 == 0 || i >= 3 * block) as u32 * (i as u32 % 5 + 1))
        .collect();
    let mut out = vec![u32::MAX; 12];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: 4 × 96 threads over 384 predicates, 3 words per block.
    launch(config(Dim3::x(4), Dim3::x(block as u32), 0), || unsafe {
        api::barrier_votes(&predicate, pointer.get())
    })
    .unwrap();
    for b in 0..4 {
        let slice = &predicate[b * block..(b + 1) * block];
        let count = slice.iter().filter(|&&p| p != 0).count() as u32;
        assert_eq!(
            out[3 * b..3 * b + 3],
            [count, (count == block as u32) as u32, (count > 0) as u32],
            "block {b}"
        );
    }
}

/// Lane `source` of `lane`'s warp, or `lane` itself past the range, as CUDA C documents the shuffles.
fn warp_reference(input: &[u32], t: usize) -> [u32; 12] {
    let (warp, lane) = (t / 32 * 32, t % 32);
    let at = |l: usize| input[warp + l];
    let v = input[t];
    let down = |delta: usize| if lane + delta < 32 { at(lane + delta) } else { v };
    let segment = lane / 8 * 8;
    let up2 = if lane >= segment + 2 { at(lane - 2) } else { v };
    let lanes = 0..32usize;
    let ballot = lanes.clone().filter(|&l| at(l) % 3 == 0).fold(0u32, |m, l| m | 1 << l);
    let all = lanes.clone().all(|l| at(l) < 1000) as u32;
    let any = lanes.clone().any(|l| at(l) == 7) as u32;
    let same_class = lanes
        .clone()
        .filter(|&l| at(l) % 4 == v % 4)
        .fold(0u32, |m, l| m | 1 << l);
    let all_same = if lanes.clone().all(|l| at(l) / 1000 == v / 1000) {
        u32::MAX
    } else {
        0
    };
    let sum = lanes.clone().map(at).fold(0u32, u32::wrapping_add);
    let min = lanes.map(|l| at(l) as i32 - 20).min().unwrap() as u32;
    [
        down(3),
        up2,
        at(5),
        at(lane ^ 1),
        (down(1) as f32).to_bits(),
        ((down(4) as u64) << 33) as u32,
        ballot,
        all | any << 1,
        same_class,
        all_same,
        sum,
        min,
    ]
}

#[test]
fn warp_operations_match_cuda_cs_definitions() {
    let input: Vec<u32> = (0..128u32)
        .map(|i| (i * 37 + 11) % 101 + (i / 64) * 1000 + (i == 70) as u32 * 7)
        .collect();
    let mut out = vec![0u32; 12 * input.len()];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: 2 × 64 threads over 128 inputs, 12 words each.
    launch(config(Dim3::x(2), Dim3::x(64), 0), || unsafe {
        api::warp_operations(&input, pointer.get())
    })
    .unwrap();
    for t in 0..input.len() {
        assert_eq!(out[12 * t..12 * t + 12], warp_reference(&input, t), "thread {t}");
    }
}

#[test]
fn a_warp_operation_leaving_out_a_lane_is_a_fault_in_the_emulator() {
    use cuda_std::prelude::*;
    #[kernel]
    unsafe fn half_warp_ballot(out: *mut u32) {
        let lanes = unsafe { cuda_std::warp::warp_vote_ballot(0x0000_ffff, true) };
        unsafe { *out.add(thread::index_1d() as usize) = lanes };
    }
    let mut out = vec![0u32; 32];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: 32 threads, 32 words.
    let error = launch(config(Dim3::x(1), Dim3::x(32), 0), || unsafe {
        half_warp_ballot(pointer.get())
    })
    .unwrap_err();
    assert!(
        error.has_fault(
            |kind| matches!(kind, FaultKind::KernelPanic { message } if message.contains("leaves out lanes"))
        ),
        "{error}"
    );
}

#[test]
fn a_barrier_vote_some_threads_skip_is_a_fault() {
    use cuda_std::prelude::*;
    #[kernel]
    unsafe fn divergent_vote(out: *mut u32) {
        if thread::thread_idx_x() < 16 {
            unsafe { *out = thread::sync_threads_count(1) };
        }
    }
    let mut out = vec![0u32; 1];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: one word, written by the threads that reach the vote.
    let error = launch(config(Dim3::x(1), Dim3::x(32), 0), || unsafe {
        divergent_vote(pointer.get())
    })
    .unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(kind, FaultKind::BarrierDeadlock { .. })),
        "{error}"
    );
}

#[test]
fn shared_arrays_and_dynamic_memory_are_per_block() {
    let block = api::BLOCK;
    let input: Vec<f32> = (0..3 * block).map(|i| i as f32 * 0.5).collect();
    let mut out = vec![f32::NAN; input.len()];
    let pointer = HostPointer::new(out.as_mut_ptr());
    let dynamic_bytes = 4 * block;
    // SAFETY: 3 blocks of BLOCK threads over 3 × BLOCK elements, BLOCK f32s of dynamic shared memory.
    launch(config(Dim3::x(3), Dim3::x(block as u32), dynamic_bytes), || unsafe {
        api::shared_memory(&input, pointer.get())
    })
    .unwrap();
    for b in 0..3 {
        for t in 0..block {
            let i = b * block + t;
            let expected = input[b * block + (t + 1) % block] + 2.0 * input[i] + block as f32 + dynamic_bytes as f32;
            assert_eq!(out[i], expected, "element {i}");
        }
    }
}

#[test]
fn atomic_floats_sum_at_every_scope() {
    let input: Vec<f32> = (0..256).map(|i| (i % 16) as f32 * 0.25).collect();
    let sums: Vec<AtomicF32> = (0..5).map(|_| AtomicF32::new(0.0)).collect();
    let wide = SystemAtomicF64::new(0.0);
    // SAFETY: 4 × 64 threads over 256 inputs; sums[0] and one per block.
    launch(config(Dim3::x(4), Dim3::x(64), 0), || unsafe {
        api::atomics(&input, &sums, &wide)
    })
    .unwrap();
    // Quarter multiples with small sums: every order of additions is exact.
    let total: f32 = input.iter().sum();
    assert_eq!(sums[0].load(Ordering::Relaxed), total);
    assert_eq!(wide.load(Ordering::Relaxed), total as f64);
    for b in 0..4 {
        let block: f32 = input[64 * b..64 * (b + 1)].iter().sum();
        assert_eq!(sums[1 + b].load(Ordering::Relaxed), block, "block {b}");
    }
}

/// |got − exact| in ulp of the exact value.
fn ulp_error(got: f32, exact: f64) -> f64 {
    if got as f64 == exact {
        return 0.0;
    }
    let magnitude = exact.abs().max(f32::MIN_POSITIVE as f64);
    (got as f64 - exact).abs() / 2f64.powi(magnitude.log2().floor() as i32 - 23)
}

#[test]
fn gpu_float_math_is_exact_or_within_its_stated_bounds() {
    let input: Vec<f32> = (0..1000).map(|i| (i as f32 - 500.0) * 0.0173 + 0.001).collect();
    let mut out = vec![f32::NAN; 9 * input.len()];
    let pointer = HostPointer::new(out.as_mut_ptr());
    // SAFETY: 4 × 256 threads, guarded by input.len(); 9 words per element.
    launch(config(Dim3::x(4), Dim3::x(256), 0), || unsafe {
        api::float_math(&input, pointer.get())
    })
    .unwrap();
    for (i, &x) in input.iter().enumerate() {
        let w = &out[9 * i..9 * i + 9];
        assert_eq!(w[0], x.floor(), "floor({x})");
        assert_eq!(w[1], x.round(), "round({x})");
        assert_eq!(w[2], x - x.trunc(), "fract({x})");
        assert_eq!(w[3], 2.0f32.copysign(x), "copysign({x})");
        assert_eq!(w[4], x.mul_add(3.0, 1.0), "mul_add({x})");
        // Three roundings of the squarings and products and one of the reciprocal: within 4 ulp.
        assert!(ulp_error(w[5], (x as f64).powi(-3)) <= 4.0, "powi({x}, -3) = {}", w[5]);
        assert_eq!(w[6], x.abs().sqrt(), "sqrt(|{x}|)");
        assert!(
            ulp_error(w[7], (x as f64).exp()) <= ptx_device_bounds::EXP,
            "exp({x}) = {}",
            w[7]
        );
        assert!(
            ulp_error(w[8], (x as f64).sin()) <= ptx_device_bounds::SIN,
            "sin({x}) = {}",
            w[8]
        );
    }
}

/// The device layer's published bounds (ptx_device::EXP_MAX_ULP, SIN_MAX_ULP).
mod ptx_device_bounds {
    pub const EXP: f64 = 2.0;
    pub const SIN: f64 = 1.6;
}

#[test]
fn println_and_clock_run_in_the_emulator() {
    let mut cycles = vec![0u64; 1];
    let pointer = HostPointer::new(cycles.as_mut_ptr());
    // SAFETY: one thread writes the one word.
    launch(config(Dim3::x(1), Dim3::x(1), 0), || unsafe {
        api::hello(1.5, pointer.get())
    })
    .unwrap();
    assert!(cycles[0] > 0);
}
