//! Property tests: the emulator runs kernels on randomly drawn shapes (grid,
//! block, sizes, offsets, strides) and must agree with the CPU references
//! every time. A small fixed-seed generator keeps failures reproducible.

mod support;

use kernels_gpu::global_memory::{offset_copy, shift_copy, stride_copy};
use kernels_gpu::matrix_vector::{
    matvec_tree_sequential, matvec_warp_per_row, matvec_warp_shuffle, warp_per_row_block,
};
use ptxsuite::device::{Dim3, F32x4};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::reference;
use support::aligned_floats;

/// SplitMix64: tiny, deterministic, good enough to pick shapes.
struct Shapes(u64);

impl Shapes {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn pick(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % (hi - lo + 1) as u64) as u32
    }
}

const CASES: usize = 40;

fn values(len: usize, seed: u64) -> Vec<f32> {
    let mut rng = Shapes(seed);
    (0..len).map(|_| (rng.next() % 2001) as f32 / 1000.0 - 1.0).collect()
}

#[test]
fn copies_agree_with_the_reference_on_random_shapes() {
    let mut rng = Shapes(2026);
    for case in 0..CASES {
        let (blocks, block) = (rng.pick(1, 5), 32 * rng.pick(1, 4));
        let threads = (blocks * block) as usize;
        let param = rng.pick(0, 40) as i32;
        let tail = rng.pick(0, 50) as usize;
        let kernel = case % 3;
        let len = match kernel {
            0 | 2 => threads + param as usize + tail,
            _ => (threads - 1) * (param.max(1) as usize) + 1 + tail,
        };
        let input = values(len, case as u64);
        let mut output = vec![-7.0f32; len];
        {
            let mut emu = Emulator::new();
            let inp = emu.global(&input);
            let out = emu.global_mut(&mut output);
            let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), 0);
            let stride = param.max(1);
            // SAFETY: the emulator checks every access; the lengths above keep them in bounds.
            let result = match kernel {
                0 => emu.launch(config, || unsafe { offset_copy(out, inp, param) }),
                1 => emu.launch(config, || unsafe { stride_copy(out, inp, stride) }),
                _ => emu.launch(config, || unsafe { shift_copy(out, inp, param) }),
            };
            result.unwrap_or_else(|e| panic!("case {case}: {e}"));
        }
        let mut expected = vec![-7.0f32; len];
        match kernel {
            0 => reference::offset_copy(&mut expected, &input, threads, param as usize),
            1 => reference::stride_copy(&mut expected, &input, threads, param.max(1) as usize),
            _ => reference::shift_copy(&mut expected, &input, threads, param as usize),
        }
        assert_eq!(
            output, expected,
            "case {case}: kernel {kernel}, {blocks}x{block}, parameter {param}, len {len}"
        );
    }
}

/// A random `height × width` matrix (values seeded by `seed`) and vector
/// (`1000 + seed`) in 16-byte-aligned storage, for the float4 path of
/// warp-per-row, and their reference product with its error scale.
fn aligned_matvec(width: u32, height: u32, seed: u64) -> (Vec<F32x4>, Vec<F32x4>, Vec<f32>, Vec<f64>) {
    let elements = (width * height) as usize;
    let (m_values, v_values) = (values(elements, seed), values(width as usize, 1000 + seed));
    let mut m_store = aligned_floats(elements, |i| m_values[i]);
    let mut v_store = aligned_floats(width as usize, |i| v_values[i]);
    let m = F32x4::as_floats_mut(&mut m_store)[..elements].to_vec();
    let v = F32x4::as_floats_mut(&mut v_store)[..width as usize].to_vec();
    let (expected, scale) = reference::matvec(&m, width as usize, height as usize, &v);
    (m_store, v_store, expected, scale)
}

#[test]
fn matrix_vector_versions_agree_with_the_reference_on_random_shapes() {
    let mut rng = Shapes(7);
    for case in 0..CASES / 2 {
        let (width, height) = (rng.pick(1, 300), rng.pick(1, 40));
        // Powers of two: the tree reduction's contract (the suite launches 256).
        let (blocks, block) = (rng.pick(1, 4), 32 << rng.pick(0, 2));
        let elements = (width * height) as usize;
        let (mut m_store, mut v_store, expected, scale) = aligned_matvec(width, height, case as u64);
        let floats = F32x4::as_floats_mut;
        for (name, version) in [
            ("tree_sequential", matvec_tree_sequential as unsafe fn(_, _, _, _, _)),
            ("warp_shuffle", matvec_warp_shuffle),
            ("warp_per_row", matvec_warp_per_row),
        ] {
            let mut w = vec![f32::NAN; height as usize];
            {
                let mut emu = Emulator::new();
                let pm = emu.global(&floats(&mut m_store)[..elements]);
                let pv = emu.global(&floats(&mut v_store)[..width as usize]);
                let pw = emu.global_mut(&mut w);
                let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), block as usize * 4);
                // SAFETY: checked by the emulator.
                emu.launch(config, || unsafe { version(pm, width, height, pv, pw) })
                    .unwrap_or_else(|e| panic!("case {case} {name}: {e}"));
            }
            if let Some(why) = reference::matvec_mismatch(&w, &expected, &scale, width as usize) {
                panic!("case {case} {name} ({height}x{width} on {blocks}x{block}): {why}");
            }
        }
    }
}

#[test]
fn warp_per_row_splits_random_wide_rows_and_agrees_with_the_reference() {
    let mut rng = Shapes(11);
    for case in 0..CASES / 4 {
        // Widths where warps_per_row gives 1 to 8 warps (and odd ones, read as floats), few rows,
        // blocks of 1 to 8 warps (block_row_parts fits the pieces to them) and a grid too small
        // for the rows, so that the block-wide loop over groups of rows runs.
        let width = if case % 2 == 0 {
            4 * rng.pick(225, 2250)
        } else {
            rng.pick(900, 9000)
        };
        let height = rng.pick(1, 12);
        let (blocks, block) = (rng.pick(1, 3), 32 << rng.pick(0, 3));
        let elements = (width * height) as usize;
        let (mut m_store, mut v_store, expected, scale) = aligned_matvec(width, height, 2000 + case as u64);
        let floats = F32x4::as_floats_mut;
        let mut w = vec![f32::NAN; height as usize];
        {
            let mut emu = Emulator::new();
            let pm = emu.global(&floats(&mut m_store)[..elements]);
            let pv = emu.global(&floats(&mut v_store)[..width as usize]);
            let pw = emu.global_mut(&mut w);
            // The launcher's shared memory for this block: a float per warp where rows are split.
            let (_, shared_bytes) = warp_per_row_block(width, block);
            let config = LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), shared_bytes as usize);
            // SAFETY: checked by the emulator.
            emu.launch(config, || unsafe { matvec_warp_per_row(pm, width, height, pv, pw) })
                .unwrap_or_else(|e| panic!("case {case} ({height}x{width} on {blocks}x{block}): {e}"));
        }
        if let Some(why) = reference::matvec_mismatch(&w, &expected, &scale, width as usize) {
            panic!("case {case} ({height}x{width} on {blocks}x{block}): {why}");
        }
    }
}
