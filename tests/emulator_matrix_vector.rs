//! The whitepaper's matrix-vector versions in the CPU emulator, against the
//! CPU reference, on shapes that are not multiples of the block or warp.

mod support;

use kernels_gpu::device::F32x4;
use kernels_gpu::matrix_vector::{
    matvec_block_serial_sum, matvec_grid_stride_rows, matvec_row_per_thread, matvec_tree_interleaved,
    matvec_tree_sequential, matvec_warp_per_row, matvec_warp_shuffle,
};
use ptxsuite::device::{Dim3, GlobalMutPtr, GlobalPtr, shfl_down_sync, thread_idx_x};
use ptxsuite::emulator::{Emulator, FaultKind, LaunchConfig};
use ptxsuite::reference::{matvec, matvec_mismatch};

type Version = unsafe fn(GlobalPtr<f32>, u32, u32, GlobalPtr<f32>, GlobalMutPtr<f32>);

const VERSIONS: [(&str, Version, bool); 7] = [
    ("row_per_thread", matvec_row_per_thread, false),
    ("grid_stride_rows", matvec_grid_stride_rows, false),
    ("block_serial_sum", matvec_block_serial_sum, true),
    ("tree_interleaved", matvec_tree_interleaved, true),
    ("tree_sequential", matvec_tree_sequential, true),
    ("warp_shuffle", matvec_warp_shuffle, true),
    ("warp_per_row", matvec_warp_per_row, false),
];

use support::aligned_floats as aligned;

fn floats(store: &mut [F32x4]) -> &mut [f32] {
    F32x4::as_floats_mut(store)
}

fn run(version: Version, shared: bool, width: u32, height: u32, blocks: u32, block: u32) -> Vec<f32> {
    let (elements, width_len) = ((width * height) as usize, width as usize);
    let mut m_store = aligned(elements, |i| ((i * 37) % 101) as f32 / 50.0 - 1.0);
    let mut v_store = aligned(width_len, |i| ((i * 13) % 17) as f32 / 8.0 - 1.0);
    let m = floats(&mut m_store)[..elements].to_vec();
    let v = floats(&mut v_store)[..width_len].to_vec();
    let mut w = vec![f32::NAN; height as usize];
    {
        let mut emu = Emulator::new();
        let (m_dev, v_dev) = (&floats(&mut m_store)[..elements], &floats(&mut v_store)[..width_len]);
        let (pm, pv, pw) = (emu.global(m_dev), emu.global(v_dev), emu.global_mut(&mut w));
        let shared_bytes = if shared { block as usize * 4 } else { 0 };
        emu.launch(
            LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), shared_bytes),
            || unsafe { version(pm, width, height, pv, pw) },
        )
        .unwrap_or_else(|e| panic!("{width}x{height} on {blocks}x{block}: {e}"));
    }
    let (expected, scale) = matvec(&m, width as usize, height as usize, &v);
    if let Some(why) = matvec_mismatch(&w, &expected, &scale, width as usize) {
        panic!("{width}x{height} on {blocks}x{block}: {why}");
    }
    w
}

#[test]
fn every_version_matches_the_reference_on_ragged_shapes() {
    for (name, version, shared) in VERSIONS {
        for (width, height) in [
            (1u32, 1u32),
            (7, 3),
            (8, 4),
            (15, 2),
            (100, 70),
            (257, 5),
            (33, 129),
            (128, 9),
        ] {
            // Row-per-thread needs enough threads for every row; the others cover rows with a loop.
            let blocks = if name == "row_per_thread" {
                height.div_ceil(64)
            } else {
                3
            };
            run(version, shared, width, height, blocks, 64);
        }
    }
}

#[test]
fn one_thread_per_row_versions_equal_the_plain_sequential_loop_bit_for_bit() {
    // Listings 2 and 3 read the row in chunks of ROW_DOT_CHUNK, loads first; the
    // FMAs still run in column order, so the sum must be exactly the plain loop's.
    for (width, height) in [(1u32, 3u32), (7, 2), (8, 2), (9, 2), (100, 5), (1100, 3)] {
        for version in [VERSIONS[0], VERSIONS[1]] {
            let got = run(version.1, version.2, width, height, height.div_ceil(64), 64);
            let m: Vec<f32> = (0..(width * height) as usize)
                .map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0)
                .collect();
            let v: Vec<f32> = (0..width as usize)
                .map(|i| ((i * 13) % 17) as f32 / 8.0 - 1.0)
                .collect();
            for (y, value) in got.iter().enumerate() {
                let row = &m[y * width as usize..][..width as usize];
                let plain = row.iter().zip(&v).fold(0.0f32, |dot, (a, b)| a.mul_add(*b, dot));
                assert_eq!(
                    value.to_bits(),
                    plain.to_bits(),
                    "{} {width}x{height} row {y}",
                    version.0
                );
            }
        }
    }
}

#[test]
fn block_versions_work_with_one_block_for_many_rows() {
    for (_, version, shared) in &VERSIONS[1..] {
        run(*version, *shared, 45, 20, 1, 128);
    }
}

#[test]
fn tree_reductions_use_only_the_shared_memory_they_are_given() {
    // 64 threads but room for 32 floats: the first partial store of thread 32 is out of range.
    let m = vec![1.0f32; 64];
    let v = vec![1.0f32; 64];
    let mut w = vec![0.0f32; 1];
    let mut emu = Emulator::new();
    let (pm, pv, pw) = (emu.global(&m), emu.global(&v), emu.global_mut(&mut w));
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(64), 32 * 4), || unsafe {
            matvec_tree_sequential(pm, 64, 1, pv, pw)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
}

#[test]
fn shuffle_down_moves_values_between_lanes() {
    let mut out = vec![0.0f32; 64];
    {
        let mut emu = Emulator::new();
        let po = emu.global_mut(&mut out);
        emu.launch(LaunchConfig::new(Dim3::x(1), Dim3::x(64), 0), || {
            let t = thread_idx_x();
            let got = shfl_down_sync(t as f32, 3);
            unsafe { po.store(t as isize, got) };
        })
        .unwrap();
    }
    for (t, value) in out.iter().enumerate() {
        let lane = t % 32;
        let expected = if lane + 3 < 32 { (t + 3) as f32 } else { t as f32 };
        assert_eq!(*value, expected, "thread {t}");
    }
}

#[test]
fn a_lane_missing_from_a_shuffle_is_a_deadlock() {
    let emu = Emulator::new();
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(32), 0), || {
            if thread_idx_x() == 5 {
                return;
            }
            let _ = shfl_down_sync(1.0, 1);
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::BarrierDeadlock { .. })),
        "{err}"
    );
}
