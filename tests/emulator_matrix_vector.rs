//! The whitepaper's matrix-vector versions in the CPU emulator, against the
//! CPU reference, on shapes that are not multiples of the block or warp.

mod support;

use kernels_gpu::device::F32x4;
use kernels_gpu::matrix_vector::{
    block_row_parts, matvec_block_serial_sum, matvec_grid_stride_rows, matvec_row_per_thread, matvec_tree_interleaved,
    matvec_tree_sequential, matvec_warp_per_row, matvec_warp_shuffle, warp_per_row_block, warps_per_row,
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

/// The test matrix's element `i` (row-major) and the vector's element `i`.
fn m_value(i: usize) -> f32 {
    ((i * 37) % 101) as f32 / 50.0 - 1.0
}

fn v_value(i: usize) -> f32 {
    ((i * 13) % 17) as f32 / 8.0 - 1.0
}

fn run(version: Version, shared: bool, width: u32, height: u32, blocks: u32, block: u32) -> Vec<f32> {
    run_with_shared(
        version,
        if shared { block as usize * 4 } else { 0 },
        width,
        height,
        blocks,
        block,
    )
}

/// Runs `version` on `blocks` blocks of `block` threads with `shared_bytes` of dynamic shared
/// memory, checks the result against the CPU reference and returns it.
fn run_with_shared(
    version: Version,
    shared_bytes: usize,
    width: u32,
    height: u32,
    blocks: u32,
    block: u32,
) -> Vec<f32> {
    let (elements, width_len) = ((width * height) as usize, width as usize);
    let mut m_store = aligned(elements, m_value);
    let mut v_store = aligned(width_len, v_value);
    let m = floats(&mut m_store)[..elements].to_vec();
    let v = floats(&mut v_store)[..width_len].to_vec();
    let mut w = vec![f32::NAN; height as usize];
    {
        let mut emu = Emulator::new();
        let (m_dev, v_dev) = (&floats(&mut m_store)[..elements], &floats(&mut v_store)[..width_len]);
        let (pm, pv, pw) = (emu.global(m_dev), emu.global(v_dev), emu.global_mut(&mut w));
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
            let m: Vec<f32> = (0..(width * height) as usize).map(m_value).collect();
            let v: Vec<f32> = (0..width as usize).map(v_value).collect();
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
fn warps_per_row_gives_each_warp_at_least_4_kb_of_the_row() {
    for (width, warps) in [
        (1100, 1), // 275 float4s: one warp per row, as before the split
        (8192, 8), // 2048 float4s: 256 per warp
        (1024, 1),
        (2048, 2),
        (4096, 4),
        (8190, 1), // width % 4 != 0: floats, one warp per row
        (0, 1),
        (2044, 1), // 511 float4s: two pieces would be 255
        (4100, 4),
        (8188, 4),
        (1 << 20, 8),
    ] {
        assert_eq!(warps_per_row(width), warps, "width {width}");
    }
    // A block whose warps the rule does not divide splits rows less.
    assert_eq!(block_row_parts(8192, 8), 8);
    assert_eq!(block_row_parts(8192, 4), 4);
    assert_eq!(block_row_parts(8192, 6), 2);
    assert_eq!(block_row_parts(8192, 3), 1);
    assert_eq!(block_row_parts(1100, 8), 1);
    // The suite's blocks of 256: rows per block and shared bytes.
    assert_eq!(warp_per_row_block(1100, 256), (8, 0));
    assert_eq!(warp_per_row_block(2048, 256), (4, 32));
    assert_eq!(warp_per_row_block(4096, 256), (2, 32));
    assert_eq!(warp_per_row_block(8192, 256), (1, 32));
    assert_eq!(warp_per_row_block(8190, 256), (8, 0));
}

/// `matvec_warp_per_row`'s row `y` as the kernel computes it, in the order its
/// documentation gives: each lane's FMAs over its `float4`s (or floats) of
/// each piece in column order, the shuffle-down tree of `warp_sum`, and the
/// pieces added in order to the first.
fn warp_per_row_model(m: &[f32], v: &[f32], width: usize, y: usize, parts: usize) -> f32 {
    let row = &m[y * width..][..width];
    let tree = |mut lanes: [f32; 32]| {
        for offset in [16, 8, 4, 2, 1] {
            for lane in 0..32 - offset {
                lanes[lane] += lanes[lane + offset];
            }
        }
        lanes[0]
    };
    if width % 4 != 0 {
        assert_eq!(parts, 1);
        return tree(std::array::from_fn(|lane| {
            (lane..width)
                .step_by(32)
                .fold(0.0f32, |sum, x| row[x].mul_add(v[x], sum))
        }));
    }
    let n4 = width / 4;
    let per = n4.div_ceil(parts).div_ceil(8) * 8;
    let piece = |part: usize| {
        let begin = (part * per).min(n4);
        let end = (begin + per).min(n4);
        tree(std::array::from_fn(|lane| {
            (begin + lane..end).step_by(32).fold(0.0f32, |sum, x| {
                (4 * x..4 * x + 4).fold(sum, |sum, column| row[column].mul_add(v[column], sum))
            })
        }))
    };
    (1..parts).fold(piece(0), |total, part| total + piece(part))
}

#[test]
fn warp_per_row_splits_wide_rows_and_sums_in_its_documented_order() {
    // One warp per row (1100, and 8190 read as floats), 2 warps (2048; 2056: pieces of 264 and 250
    // float4s), 4 (4100: 264, 264, 264, 233; 8188) and 8 (8192); blocks of 256 (the suite's), 128
    // (4 warps: 8192 in 4 pieces) and 96 (3 warps: every row one warp); too few blocks for the rows,
    // so the loop over groups of rows runs, and the last group is partly past the last row.
    for (width, height) in [
        (1100u32, 37u32),
        (8190, 11),
        (2048, 9),
        (2056, 9),
        (4100, 7),
        (8188, 5),
        (8192, 13),
    ] {
        let m: Vec<f32> = (0..(width * height) as usize).map(m_value).collect();
        let v: Vec<f32> = (0..width as usize).map(v_value).collect();
        for block in [256, 128, 96] {
            let parts = block_row_parts(width, block / 32);
            let (rows_per_block, shared_bytes) = warp_per_row_block(width, block);
            assert_eq!(rows_per_block, block / 32 / parts);
            let blocks = height.div_ceil(rows_per_block).div_ceil(2);
            let got = run_with_shared(matvec_warp_per_row, shared_bytes as usize, width, height, blocks, block);
            for (y, value) in got.iter().enumerate() {
                let model = warp_per_row_model(&m, &v, width as usize, y, parts as usize);
                assert_eq!(
                    value.to_bits(),
                    model.to_bits(),
                    "{width} wide, row {y}, {parts} warps per row, blocks of {block}: {value} against {model}"
                );
            }
        }
    }
}

#[test]
fn warp_per_row_uses_only_the_shared_memory_its_launch_gives() {
    // 8 warps per row at 8192 columns need 8 floats; room for 7 faults.
    let (m, v) = (aligned(8192, m_value), aligned(8192, v_value));
    let mut w = vec![0.0f32; 1];
    let mut emu = Emulator::new();
    let (pm, pv, pw) = (
        emu.global(F32x4::as_floats(&m)),
        emu.global(F32x4::as_floats(&v)),
        emu.global_mut(&mut w),
    );
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(256), 7 * 4), || unsafe {
            matvec_warp_per_row(pm, 8192, 1, pv, pw)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
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
