//! The general matrix multiplies (`kernels_gpu::sgemm`) in the CPU
//! emulator against the f64 CPU reference: every element within
//! 1e-5 · Σ|a·b| of it, on shapes that are and are not multiples of the
//! tiles. Buffers are registered at exactly `m·k`, `k·n` and `m·n` elements
//! (16-byte aligned, as `cuMemAlloc` gives), so any access past an edge
//! faults, and `C` starts as NaN, so any element left unwritten fails.

mod support;

use half::f16;
use kernels_gpu::device::{F32x4, f16_bits_to_f32};
use kernels_gpu::sgemm::{
    SGEMM_BK, SGEMM_BM, SGEMM_BN, SGEMM_THREADS, SGEMM_TILE_128X64, SGEMM_TILE_128X128, SGEMM_WARP_TILE_128X128,
    SgemmTile, TILED_SGEMM_TILE, hgemm_f16_storage, hgemm_f16_storage_whole_tiles, naive_sgemm, sgemm_register_blocked,
    sgemm_register_blocked_128x64, sgemm_register_blocked_128x64_guarded_edges, sgemm_register_blocked_128x64_split_k,
    sgemm_register_blocked_128x64_whole_tiles, sgemm_register_blocked_guarded_edges,
    sgemm_register_blocked_whole_tiles, sgemm_shared_bytes, sgemm_warp_tiled, sgemm_warp_tiled_whole_tiles,
    split_k_span, tiled_sgemm, tiled_sgemm_shared_bytes,
};
use ptxsuite::device::{Dim3, GlobalMutPtr, GlobalPtr};
use ptxsuite::emulator::{Emulator, FaultKind, LaunchConfig};
use ptxsuite::launchers::{
    SPLIT_K_SPLITS, adds_into_c, register_blocked_tile_of_entry, warp_tiled_entry, whole_register_blocked_tiles,
};
use ptxsuite::reference::matmul;
use support::aligned_floats;

type F32Kernel = unsafe fn(GlobalPtr<f32>, GlobalPtr<f32>, GlobalMutPtr<f32>, u32, u32, u32);

/// `(m, n, k)`: 1×1×1; edges in every dimension with `k % 4 != 0` and
/// `n % 4 != 0` (scalar loads and stores); edges with `k % 4 == 0` and
/// `n % 4 == 0` (`float4` paths, partial last `k` tile); mixed; exact multiples
/// of the register-blocked tile (the unguarded whole-tile path, 2 tiles per
/// trip): one block and two, and one and three `k` tiles (odd: the last trip
/// runs one tile).
const SHAPES: [(usize, usize, usize); 11] = [
    (1, 1, 1),
    (33, 65, 17),
    (130, 127, 9),
    (5, 260, 12),
    (70, 36, 20),
    (17, 128, 30),
    (9, 6, 40),
    (128, 128, 32),
    (256, 128, 64),
    (128, 128, 8),
    (128, 256, 24),
];

/// Deterministic values in [-1, 1) that are not all dyadic, so rounding differences show.
fn value(i: usize, salt: usize) -> f32 {
    ((i * 7919 + salt * 104_729) % 2001) as f32 / 1000.0 - 1.0
}

fn assert_close(got: &[f32], expected: &[f32], scale: &[f64], what: &str) {
    assert_eq!(got.len(), expected.len());
    for (i, ((g, e), s)) in got.iter().zip(expected).zip(scale).enumerate() {
        let error = (*g as f64 - *e as f64).abs();
        assert!(error <= 1e-5 * s + 1e-30, "{what}: element {i} is {g}, reference {e}");
    }
}

fn tiled_config(m: usize, n: usize) -> LaunchConfig {
    let t = TILED_SGEMM_TILE;
    LaunchConfig::new(
        Dim3::xy((n as u32).div_ceil(t), (m as u32).div_ceil(t)),
        Dim3::xy(t, t),
        tiled_sgemm_shared_bytes(),
    )
}

fn register_blocked_config(m: usize, n: usize) -> LaunchConfig {
    LaunchConfig::new(
        Dim3::xy((n as u32).div_ceil(SGEMM_BN), (m as u32).div_ceil(SGEMM_BM)),
        Dim3::x(SGEMM_THREADS),
        sgemm_shared_bytes(),
    )
}

fn tile_config(tile: SgemmTile, m: usize, n: usize) -> LaunchConfig {
    let (x, y) = tile.grid(m as u32, n as u32);
    LaunchConfig::new(Dim3::xy(x, y), Dim3::x(SGEMM_THREADS), tile.shared_bytes())
}

/// Runs an f32 kernel on `m×k` and `k×n` inputs from [`value`]; returns `C` and the inputs.
fn run_f32(
    kernel: F32Kernel,
    config: LaunchConfig,
    (m, n, k): (usize, usize, usize),
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let a_store = aligned_floats(m * k, |i| value(i, 1));
    let b_store = aligned_floats(k * n, |i| value(i, 2));
    let mut c_store = aligned_floats(m * n, |_| f32::NAN);
    let (a, b) = (
        &F32x4::as_floats(&a_store)[..m * k],
        &F32x4::as_floats(&b_store)[..k * n],
    );
    {
        let c = &mut F32x4::as_floats_mut(&mut c_store)[..m * n];
        let mut emu = Emulator::new();
        let (pa, pb, pc) = (emu.global(a), emu.global(b), emu.global_mut(c));
        let (m, n, k) = (m as u32, n as u32, k as u32);
        // SAFETY: buffers of m·k, k·n, m·n floats, 16-byte aligned; the launch shape the kernel documents.
        emu.launch(config, || unsafe { kernel(pa, pb, pc, m, n, k) })
            .unwrap_or_else(|e| panic!("{m}×{n}×{k}: {e}"));
    }
    let c = F32x4::as_floats(&c_store)[..m * n].to_vec();
    (c, a.to_vec(), b.to_vec())
}

#[test]
fn tiled_sgemm_matches_the_reference_on_every_shape() {
    for (m, n, k) in SHAPES {
        let (c, a, b) = run_f32(tiled_sgemm, tiled_config(m, n), (m, n, k));
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("tiled_sgemm {m}×{n}×{k}"));
    }
}

#[test]
fn naive_sgemm_matches_the_reference_and_the_tiled_kernel_bit_for_bit() {
    for (m, n, k) in SHAPES {
        let t = TILED_SGEMM_TILE;
        let config = LaunchConfig::new(
            Dim3::xy((n as u32).div_ceil(t), (m as u32).div_ceil(t)),
            Dim3::xy(t, t),
            0,
        );
        let (c, a, b) = run_f32(naive_sgemm, config, (m, n, k));
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("naive_sgemm {m}×{n}×{k}"));
        // The same FMAs in the same order as the tiled kernel (its zero padding adds exact zeros).
        let (tiled, _, _) = run_f32(tiled_sgemm, tiled_config(m, n), (m, n, k));
        let bits = |x: &[f32]| x.iter().map(|v| v.to_bits()).collect::<Vec<u32>>();
        assert_eq!(bits(&c), bits(&tiled), "naive_sgemm {m}×{n}×{k} against tiled_sgemm");
    }
}

/// Shapes made of whole register-blocked tiles, which the `_whole_tiles` entries
/// require: the launchers' own test, so these are the shapes they send there.
fn whole_tiles((m, n, k): (usize, usize, usize)) -> bool {
    whole_register_blocked_tiles((m as u32, n as u32, k as u32))
}

#[test]
fn sgemm_register_blocked_matches_the_reference_on_every_shape() {
    let mut whole_shapes = 0;
    for (m, n, k) in SHAPES {
        let (c, a, b) = run_f32(sgemm_register_blocked, register_blocked_config(m, n), (m, n, k));
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("sgemm_register_blocked {m}×{n}×{k}"));
        if whole_tiles((m, n, k)) {
            whole_shapes += 1;
            let (whole, _, _) = run_f32(
                sgemm_register_blocked_whole_tiles,
                register_blocked_config(m, n),
                (m, n, k),
            );
            // Same products in the same order: the two entries agree bit for bit.
            assert!(
                whole.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
                "sgemm_register_blocked_whole_tiles {m}×{n}×{k} differs from the guarded entry"
            );
        }
    }
    assert_eq!(whole_shapes, 4, "the whole-tile shapes of SHAPES");
}

/// Sizes of every residue mod 4 and around the tiles, like 4095³ in small:
/// with `k % 4 != 0` (`A`) or `n % 4 != 0` (`B`) the rows start at every
/// alignment, and the kernels load their strips through two aligned vectors
/// and a shift, except a row's last strip and the buffer's last elements,
/// loaded float by float. Each `(m, n, k)` takes three of the sizes.
const ODD_SIZES: [usize; 7] = [1, 3, 5, 17, 63, 65, 127];

/// Shapes of [`ODD_SIZES`]: each size in each dimension, with different
/// neighbours; then 4095³-like shapes (all three odd, several blocks and
/// `k` tiles) and mixed parities (`k % 4 == 2`: two alignments of rows;
/// `k % 4 == 0` with `n` odd, and the reverse).
fn odd_shapes() -> Vec<(usize, usize, usize)> {
    let s = ODD_SIZES;
    let mut shapes: Vec<_> = (0..s.len())
        .map(|i| (s[i], s[(i + 2) % s.len()], s[(i + 5) % s.len()]))
        .collect();
    shapes.extend([
        (131, 135, 139),
        (255, 129, 47),
        (66, 130, 62),
        (68, 63, 36),
        (63, 68, 127),
    ]);
    shapes
}

/// `C` as the kernels compute each element: `f32` FMAs in increasing `k`
/// order from zero (the zeros they pad the edge tiles with add exact zeros).
fn fma_in_k_order(a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    for row in 0..m {
        for col in 0..n {
            c[row * n + col] = (0..k).fold(0.0f32, |sum, i| a[row * k + i].mul_add(b[i * n + col], sum));
        }
    }
    c
}

#[test]
fn register_blocked_entries_match_the_reference_at_odd_sizes() {
    let small = SGEMM_TILE_128X64;
    for (m, n, k) in odd_shapes() {
        let dims = (m, n, k);
        let (c, a, b) = run_f32(sgemm_register_blocked, register_blocked_config(m, n), dims);
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("sgemm_register_blocked {m}×{n}×{k}"));
        let sequential = fma_in_k_order(&a, &b, dims);
        assert!(
            c.iter().zip(&sequential).all(|(x, y)| x.to_bits() == y.to_bits()),
            "sgemm_register_blocked {m}×{n}×{k} differs from f32 FMAs in k order"
        );
        let (c_small, _, _) = run_f32(sgemm_register_blocked_128x64, tile_config(small, m, n), dims);
        // Same products in the same order whatever the tile and however a strip was loaded.
        assert!(
            c_small.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
            "sgemm_register_blocked_128x64 {m}×{n}×{k} differs from the 128 × 128 tile"
        );
    }
}

#[test]
fn hgemm_f16_storage_matches_the_reference_at_odd_sizes() {
    for (m, n, k) in odd_shapes() {
        let a_store = aligned_halves(m * k, |i| f16::from_f32(value(i, 7)).to_bits());
        let b_store = aligned_halves(k * n, |i| f16::from_f32(value(i, 8)).to_bits());
        let (a, b) = (&halves(&a_store)[..m * k], &halves(&b_store)[..k * n]);
        let c = run_f16(hgemm_f16_storage, (a, b), (m, n, k));
        let widen = |bits: &[u16]| bits.iter().map(|&h| f16::from_bits(h).to_f32()).collect::<Vec<_>>();
        let (expected, scale) = matmul(&widen(a), &widen(b), m, k, n);
        assert_close(&c, &expected, &scale, &format!("hgemm_f16_storage {m}×{n}×{k}"));
    }
}

/// `(m, n, k)` for the 128 × 64 × 16 tile: ragged in every dimension (scalar
/// and `float4` paths, one and several `k` tiles, a partial last one), and
/// whole tiles (one block, two blocks each way, odd and even `k` tile counts).
const SHAPES_128X64: [(usize, usize, usize); 10] = [
    (1, 1, 1),
    (67, 67, 67),
    (130, 70, 33),
    (129, 65, 17),
    (200, 68, 48),
    (128, 64, 20),
    (128, 64, 16),
    (256, 128, 48),
    (128, 192, 32),
    (384, 64, 64),
];

#[test]
fn sgemm_register_blocked_128x64_matches_the_reference_on_every_shape() {
    let tile = SGEMM_TILE_128X64;
    let choice = register_blocked_tile_of_entry("sgemm_register_blocked_128x64").expect("a launcher tile");
    assert_eq!(choice.tile, tile, "the launchers run this entry with this tile");
    let mut whole_shapes = 0;
    for (m, n, k) in SHAPES_128X64 {
        let (c, a, b) = run_f32(sgemm_register_blocked_128x64, tile_config(tile, m, n), (m, n, k));
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(
            &c,
            &expected,
            &scale,
            &format!("sgemm_register_blocked_128x64 {m}×{n}×{k}"),
        );
        // The launchers send whole-tile shapes (and only those) to the unguarded entry.
        let whole = tile.whole_tiles(m as u32, n as u32, k as u32);
        assert_eq!(
            choice.entry_for((m as u32, n as u32, k as u32)) == "sgemm_register_blocked_128x64_whole_tiles",
            whole
        );
        if whole {
            whole_shapes += 1;
            let (unguarded, _, _) = run_f32(
                sgemm_register_blocked_128x64_whole_tiles,
                tile_config(tile, m, n),
                (m, n, k),
            );
            // Same products in the same order: the two entries agree bit for bit.
            assert!(
                unguarded.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
                "sgemm_register_blocked_128x64_whole_tiles {m}×{n}×{k} differs from the guarded entry"
            );
        }
    }
    assert_eq!(whole_shapes, 4, "the whole-tile shapes of SHAPES_128X64");
}

#[test]
fn the_two_register_blocked_tiles_agree_bit_for_bit() {
    // Each output is the same FMAs in the same k order whatever the tile: the
    // choice of tile changes the speed, never the result.
    for (m, n, k) in [(67, 67, 67), (130, 70, 33), (256, 128, 64)] {
        let (small, _, _) = run_f32(
            sgemm_register_blocked_128x64,
            tile_config(SGEMM_TILE_128X64, m, n),
            (m, n, k),
        );
        let (large, _, _) = run_f32(sgemm_register_blocked, register_blocked_config(m, n), (m, n, k));
        assert!(
            small.iter().zip(&large).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{m}×{n}×{k}: the 128 × 64 and 128 × 128 tiles differ"
        );
    }
}

/// `(m, n, k)` for the `_guarded_edges` entries, beyond [`SHAPES`],
/// [`SHAPES_128X64`] and [`odd_shapes`]: grids with blocks inside `C` and
/// blocks across its edges, on both tiles. Rows unaligned (`k`, `n` odd: the
/// inside blocks load float by float) and aligned (multiples of 4: `float4`);
/// whole `k` tiles then a partial one, an odd count of whole tiles, none at all
/// (`k` below the tile's depth), and every block inside `C` with only `k` ragged.
const SHAPES_GUARDED_EDGES: [(usize, usize, usize); 7] = [
    (257, 259, 35),
    (260, 196, 36),
    (256, 130, 5),
    (129, 257, 24),
    (256, 256, 20),
    (128, 128, 7),
    (384, 200, 43),
];

/// Blocks of `tile`'s grid for `m × n` that lie wholly inside `C`.
fn inside_blocks(tile: SgemmTile, m: usize, n: usize) -> usize {
    (m / tile.rows as usize) * (n / tile.cols as usize)
}

#[test]
fn guarded_edges_entries_match_the_fully_guarded_ones_bit_for_bit() {
    let mut shapes = SHAPES_GUARDED_EDGES.to_vec();
    shapes.extend(SHAPES);
    shapes.extend(SHAPES_128X64);
    shapes.extend(odd_shapes());
    let cases: [(SgemmTile, &str, F32Kernel, F32Kernel); 2] = [
        (
            SGEMM_TILE_128X128,
            "sgemm_register_blocked_guarded_edges",
            sgemm_register_blocked_guarded_edges,
            sgemm_register_blocked,
        ),
        (
            SGEMM_TILE_128X64,
            "sgemm_register_blocked_128x64_guarded_edges",
            sgemm_register_blocked_128x64_guarded_edges,
            sgemm_register_blocked_128x64,
        ),
    ];
    for (tile, name, guarded_edges, guarded) in cases {
        let choice = register_blocked_tile_of_entry(name).expect("a launcher tile");
        assert_eq!(choice.tile, tile, "the launchers run {name} with this tile");
        let (mut inside_unaligned, mut inside_aligned, mut partial_k) = (0, 0, 0);
        for &(m, n, k) in &shapes {
            let dims32 = (m as u32, n as u32, k as u32);
            // The launchers run this entry for every shape not made of whole tiles.
            assert_eq!(
                choice.entry_for(dims32) == name,
                !tile.whole_tiles(dims32.0, dims32.1, dims32.2),
                "{m}×{n}×{k}"
            );
            let (c, a, b) = run_f32(guarded_edges, tile_config(tile, m, n), (m, n, k));
            let (expected, scale) = matmul(&a, &b, m, k, n);
            assert_close(&c, &expected, &scale, &format!("{name} {m}×{n}×{k}"));
            // The same FMAs in the same k order as the fully guarded entry, whichever path a block took.
            let (reference, _, _) = run_f32(guarded, tile_config(tile, m, n), (m, n, k));
            assert!(
                c.iter().zip(&reference).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{name} {m}×{n}×{k} differs from the fully guarded entry"
            );
            if inside_blocks(tile, m, n) > 0 {
                if k % 4 == 0 && n % 4 == 0 {
                    inside_aligned += 1;
                } else {
                    inside_unaligned += 1;
                }
                if k % tile.depth as usize != 0 {
                    partial_k += 1;
                }
            }
        }
        // Both inside paths ran, with and without a partial last k tile.
        assert!(
            inside_unaligned >= 3 && inside_aligned >= 3 && partial_k >= 3,
            "{name}: {inside_unaligned} unaligned, {inside_aligned} aligned shapes with inside blocks, {partial_k} with a partial k tile"
        );
    }
}

/// Runs an f32 kernel on the given `m×k` and `k×n` inputs with `C` starting
/// as `c_start` in every element; returns `C`.
fn run_f32_on(
    kernel: F32Kernel,
    config: LaunchConfig,
    (a, b): (&[f32], &[f32]),
    (m, n, k): (usize, usize, usize),
    c_start: f32,
) -> Vec<f32> {
    let a_store = aligned_floats(m * k, |i| a[i]);
    let b_store = aligned_floats(k * n, |i| b[i]);
    let mut c_store = aligned_floats(m * n, |_| c_start);
    {
        let c = &mut F32x4::as_floats_mut(&mut c_store)[..m * n];
        let mut emu = Emulator::new();
        let (pa, pb) = (
            emu.global(&F32x4::as_floats(&a_store)[..m * k]),
            emu.global(&F32x4::as_floats(&b_store)[..k * n]),
        );
        let pc = emu.global_mut(c);
        let (m, n, k) = (m as u32, n as u32, k as u32);
        // SAFETY: buffers of m·k, k·n, m·n floats, 16-byte aligned; the launch shape the kernel documents.
        emu.launch(config, || unsafe { kernel(pa, pb, pc, m, n, k) })
            .unwrap_or_else(|e| panic!("{m}×{n}×{k}: {e}"));
    }
    F32x4::as_floats(&c_store)[..m * n].to_vec()
}

/// The split-K launch of the 128 × 64 tile: `splits` blocks per tile of `C` (`gridDim.z`).
fn split_k_config(m: usize, n: usize, splits: u32) -> LaunchConfig {
    let tile = SGEMM_TILE_128X64;
    let (x, y) = tile.grid(m as u32, n as u32);
    LaunchConfig::new(Dim3::new(x, y, splits), Dim3::x(SGEMM_THREADS), tile.shared_bytes())
}

/// Columns `begin..end` of the row-major `rows × cols` matrix `x`, as a matrix of its own.
fn columns(x: &[f32], (rows, cols): (usize, usize), (begin, end): (usize, usize)) -> Vec<f32> {
    (0..rows)
        .flat_map(|r| x[r * cols + begin..r * cols + end].to_vec())
        .collect()
}

/// What `red.global.add.f32` does to one element (as the GPU and the emulator):
/// round to nearest, subnormal inputs and result flushed to zeros of their sign.
fn red_add_f32(into: f32, value: f32) -> f32 {
    let flush = |x: f32| if x.is_subnormal() { 0.0f32.copysign(x) } else { x };
    flush(flush(into) + flush(value))
}

/// `(m, n, k)` for split-K, beyond [`SHAPES_128X64`]: spans with and without
/// a partial last `k` tile, edge and inside blocks with rows unaligned and
/// aligned, and `k` too short for every split to get a tile.
const SHAPES_SPLIT_K: [(usize, usize, usize); 9] = [
    (257, 259, 35),
    (260, 196, 36),
    (256, 130, 5),
    (129, 257, 24),
    (384, 200, 43),
    (131, 135, 139),
    (128, 64, 256),
    (256, 128, 97),
    (63, 68, 127),
];

#[test]
fn split_k_with_two_splits_is_the_sum_of_the_guarded_entrys_partials_bit_for_bit() {
    let tile = SGEMM_TILE_128X64;
    let name = "sgemm_register_blocked_128x64_split_k";
    let choice = register_blocked_tile_of_entry(name).expect("a launcher tile");
    assert_eq!((choice.tile, choice.split_k_entry), (tile, Some(name)));
    assert_eq!(choice.splits_of(name), SPLIT_K_SPLITS);
    assert!(adds_into_c(name), "the launchers zero C before {name}");
    let depth = tile.depth as usize;
    let (mut inside, mut partial_tile) = (0, 0);
    for (m, n, k) in SHAPES_128X64.into_iter().chain(SHAPES_SPLIT_K) {
        let a: Vec<f32> = (0..m * k).map(|i| value(i, 1)).collect();
        let b: Vec<f32> = (0..k * n).map(|i| value(i, 2)).collect();
        let c = run_f32_on(
            sgemm_register_blocked_128x64_split_k,
            split_k_config(m, n, 2),
            (&a, &b),
            (m, n, k),
            0.0,
        );
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("{name} {m}×{n}×{k}"));
        // Each split's partial tile is the fully guarded entry's product over that split's span of k
        // (the same FMAs in the same order), and C is 0 + first + second, in either order.
        let mut sum = vec![0.0f32; m * n];
        let mut sum_reversed = vec![0.0f32; m * n];
        let mut partials = Vec::new();
        for split in 0..2 {
            let span = split_k_span(k, depth, split, 2);
            let depth_of_span = span.1 - span.0;
            if depth_of_span == 0 {
                continue; // an empty span adds zeros
            }
            let a_span = columns(&a, (m, k), span);
            let b_span = b[span.0 * n..span.1 * n].to_vec();
            partials.push(run_f32_on(
                sgemm_register_blocked_128x64,
                tile_config(tile, m, n),
                (&a_span, &b_span),
                (m, n, depth_of_span),
                f32::NAN,
            ));
        }
        for (i, element) in sum.iter_mut().enumerate() {
            *element = partials.iter().fold(0.0, |into, p| red_add_f32(into, p[i]));
        }
        for (i, element) in sum_reversed.iter_mut().enumerate() {
            *element = partials.iter().rev().fold(0.0, |into, p| red_add_f32(into, p[i]));
        }
        let bits = |x: &[f32]| x.iter().map(|v| v.to_bits()).collect::<Vec<u32>>();
        assert_eq!(
            bits(&sum),
            bits(&sum_reversed),
            "{m}×{n}×{k}: two partials, either order"
        );
        assert_eq!(
            bits(&c),
            bits(&sum),
            "{name} {m}×{n}×{k} is not the sum of the guarded partials"
        );
        if inside_blocks(tile, m, n) > 0 {
            inside += 1;
        }
        if !k.is_multiple_of(depth) {
            partial_tile += 1;
        }
    }
    assert!(
        inside >= 8 && partial_tile >= 8,
        "{inside} shapes with inside blocks, {partial_tile} with a partial k tile"
    );
}

#[test]
fn split_k_adds_into_what_c_holds_and_takes_any_number_of_splits() {
    // More splits than k tiles (empty spans add zeros), and three or four splits (order-dependent
    // sums: within the tolerance, not bit for bit); C starting at 1 gets 1 + A·B.
    for (m, n, k) in [(130, 70, 33), (67, 67, 67), (1, 1, 1), (256, 128, 64)] {
        let a: Vec<f32> = (0..m * k).map(|i| value(i, 3)).collect();
        let b: Vec<f32> = (0..k * n).map(|i| value(i, 4)).collect();
        let (expected, scale) = matmul(&a, &b, m, k, n);
        for splits in [1, 2, 3, 4, 7] {
            let c = run_f32_on(
                sgemm_register_blocked_128x64_split_k,
                split_k_config(m, n, splits),
                (&a, &b),
                (m, n, k),
                0.0,
            );
            assert_close(&c, &expected, &scale, &format!("split-K {splits} {m}×{n}×{k}"));
        }
        let c = run_f32_on(
            sgemm_register_blocked_128x64_split_k,
            split_k_config(m, n, 2),
            (&a, &b),
            (m, n, k),
            1.0,
        );
        let shifted: Vec<f32> = expected.iter().map(|e| e + 1.0).collect();
        let scale: Vec<f64> = scale.iter().map(|s| s + 1.0).collect();
        assert_close(&c, &shifted, &scale, &format!("split-K into ones {m}×{n}×{k}"));
    }
}

#[test]
fn split_k_spans_cover_k_once_in_whole_tiles() {
    for k in [1usize, 15, 16, 17, 33, 64, 1000, 1024] {
        for splits in 1..=5 {
            let spans: Vec<_> = (0..splits).map(|z| split_k_span(k, 16, z, splits)).collect();
            assert_eq!(spans[0].0, 0);
            assert_eq!(spans[splits - 1].1, k, "k = {k}, {splits} splits");
            for pair in spans.windows(2) {
                assert_eq!(pair[0].1, pair[1].0, "contiguous: k = {k}, {splits} splits");
            }
            for &(begin, end) in &spans {
                // Starts on a tile (or at k: empty), ends on one or at k.
                assert!(begin <= end && (begin % 16 == 0 || begin == k) && (end == k || end % 16 == 0));
            }
        }
    }
    // 1024 in two: 32 tiles of 16 each.
    assert_eq!(split_k_span(1024, 16, 0, 2), (0, 512));
    assert_eq!(split_k_span(1024, 16, 1, 2), (512, 1024));
}

#[test]
fn guarded_edges_entries_need_all_of_their_shared_memory() {
    // A block inside C (m = n = 128, k of two whole tiles): its second stage runs past half the memory.
    for (tile, kernel) in [
        (SGEMM_TILE_128X128, sgemm_register_blocked_guarded_edges as F32Kernel),
        (SGEMM_TILE_128X64, sgemm_register_blocked_128x64_guarded_edges),
    ] {
        let (m, n, k) = (tile.rows as usize, tile.cols as usize, 2 * tile.depth as usize + 1);
        let a = aligned_floats(m * k, |i| value(i, 5));
        let b = aligned_floats(k * n, |i| value(i, 6));
        let mut c = aligned_floats(m * n, |_| 0.0);
        let mut emu = Emulator::new();
        let (pa, pb) = (emu.global(F32x4::as_floats(&a)), emu.global(F32x4::as_floats(&b)));
        let pc = emu.global_mut(F32x4::as_floats_mut(&mut c));
        let config = LaunchConfig::new(Dim3::xy(1, 1), Dim3::x(SGEMM_THREADS), tile.shared_bytes() / 2);
        // SAFETY: the global buffers are large enough; only the shared memory is short, which the emulator checks.
        let err = emu
            .launch(config, || unsafe { kernel(pa, pb, pc, m as u32, n as u32, k as u32) })
            .unwrap_err();
        assert!(
            err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
            "{err}"
        );
    }
}

/// `len` binary16 values in 16-byte-aligned storage (viewed as `u16`s by [`halves`]).
fn aligned_halves(len: usize, value: impl Fn(usize) -> u16) -> Vec<F32x4> {
    let mut store = vec![F32x4::default(); len.div_ceil(8)];
    for (i, h) in halves_mut(&mut store).iter_mut().take(len).enumerate() {
        *h = value(i);
    }
    store
}

fn halves(store: &[F32x4]) -> &[u16] {
    // SAFETY: F32x4 is 16 plain bytes with no padding; any bit pattern is a valid u16.
    unsafe { std::slice::from_raw_parts(store.as_ptr().cast::<u16>(), store.len() * 8) }
}

fn halves_mut(store: &mut [F32x4]) -> &mut [u16] {
    // SAFETY: as above, with exclusive access.
    unsafe { std::slice::from_raw_parts_mut(store.as_mut_ptr().cast::<u16>(), store.len() * 8) }
}

type F16Kernel = unsafe fn(GlobalPtr<u16>, GlobalPtr<u16>, GlobalMutPtr<f32>, u32, u32, u32);

/// Runs an f16-storage kernel on binary16 inputs `a` (`m×k`) and `b` (`k×n`); returns `C`.
fn run_f16(kernel: F16Kernel, (a, b): (&[u16], &[u16]), (m, n, k): (usize, usize, usize)) -> Vec<f32> {
    let mut c_store = aligned_floats(m * n, |_| f32::NAN);
    {
        let c = &mut F32x4::as_floats_mut(&mut c_store)[..m * n];
        let mut emu = Emulator::new();
        let (pa, pb, pc) = (emu.global(a), emu.global(b), emu.global_mut(c));
        let (m32, n32, k32) = (m as u32, n as u32, k as u32);
        // SAFETY: buffers of m·k, k·n halves and m·n floats, 16-byte aligned; the documented launch shape.
        emu.launch(register_blocked_config(m, n), || unsafe {
            kernel(pa, pb, pc, m32, n32, k32)
        })
        .unwrap_or_else(|e| panic!("{m}×{n}×{k}: {e}"));
    }
    F32x4::as_floats(&c_store)[..m * n].to_vec()
}

#[test]
fn hgemm_f16_storage_matches_the_reference_of_the_rounded_inputs() {
    for (m, n, k) in SHAPES {
        let a_store = aligned_halves(m * k, |i| f16::from_f32(value(i, 3)).to_bits());
        let b_store = aligned_halves(k * n, |i| f16::from_f32(value(i, 4)).to_bits());
        let (a, b) = (&halves(&a_store)[..m * k], &halves(&b_store)[..k * n]);
        let c = run_f16(hgemm_f16_storage, (a, b), (m, n, k));
        let widen = |bits: &[u16]| bits.iter().map(|&h| f16::from_bits(h).to_f32()).collect::<Vec<_>>();
        let (expected, scale) = matmul(&widen(a), &widen(b), m, k, n);
        assert_close(&c, &expected, &scale, &format!("hgemm_f16_storage {m}×{n}×{k}"));
        if whole_tiles((m, n, k)) {
            let whole = run_f16(hgemm_f16_storage_whole_tiles, (a, b), (m, n, k));
            assert!(
                whole.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
                "hgemm_f16_storage_whole_tiles {m}×{n}×{k} differs from the guarded entry"
            );
        }
    }
}

#[test]
fn f16_bits_to_f32_is_exact_for_every_half() {
    for bits in 0..=u16::MAX {
        let (got, expected) = (f16_bits_to_f32(bits), f16::from_bits(bits).to_f32());
        if expected.is_nan() {
            assert!(got.is_nan(), "{bits:#06x}: {got} is not NaN");
        } else {
            assert_eq!(got.to_bits(), expected.to_bits(), "{bits:#06x}: {got} vs {expected}");
        }
    }
}

#[test]
fn the_128x64_tile_needs_all_of_its_shared_memory() {
    // Half its shared memory: the second stage runs past it.
    let tile = SGEMM_TILE_128X64;
    let (m, n, k) = (8, 8, 2 * tile.depth as usize);
    let a = aligned_floats(m * k, |i| value(i, 5));
    let b = aligned_floats(k * n, |i| value(i, 6));
    let mut c = aligned_floats(m * n, |_| 0.0);
    let mut emu = Emulator::new();
    let (pa, pb) = (emu.global(F32x4::as_floats(&a)), emu.global(F32x4::as_floats(&b)));
    let pc = emu.global_mut(F32x4::as_floats_mut(&mut c));
    let config = LaunchConfig::new(Dim3::xy(1, 1), Dim3::x(SGEMM_THREADS), tile.shared_bytes() / 2);
    // SAFETY: the global buffers are large enough; only the shared memory is short, which the emulator checks.
    let err = emu
        .launch(config, || unsafe {
            sgemm_register_blocked_128x64(pa, pb, pc, m as u32, n as u32, k as u32)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
}

#[test]
fn register_blocked_tiles_need_all_of_their_shared_memory() {
    // One stage fewer than sgemm_shared_bytes(): the second buffer runs past it.
    let (m, n, k) = (8, 8, 2 * SGEMM_BK as usize);
    let a = aligned_floats(m * k, |i| value(i, 5));
    let b = aligned_floats(k * n, |i| value(i, 6));
    let mut c = aligned_floats(m * n, |_| 0.0);
    let mut emu = Emulator::new();
    let (pa, pb) = (emu.global(F32x4::as_floats(&a)), emu.global(F32x4::as_floats(&b)));
    let pc = emu.global_mut(F32x4::as_floats_mut(&mut c));
    let config = LaunchConfig::new(Dim3::xy(1, 1), Dim3::x(SGEMM_THREADS), sgemm_shared_bytes() / 2);
    // SAFETY: the global buffers are large enough; only the shared memory is short, which the emulator checks.
    let err = emu
        .launch(config, || unsafe {
            sgemm_register_blocked(pa, pb, pc, m as u32, n as u32, k as u32)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
}

fn warp_tile_config(m: usize, n: usize) -> LaunchConfig {
    let tile = SGEMM_WARP_TILE_128X128;
    let (x, y) = tile.grid(m as u32, n as u32);
    LaunchConfig::new(Dim3::xy(x, y), Dim3::x(tile.threads()), tile.shared_bytes())
}

/// `(m, n, k)` for the warp-tiled kernels (128 × 128 × 16): ragged in every
/// dimension (scalar and `float4` paths, a partial last `k` tile), and whole
/// tiles: one block with one `k` tile (the peeled last tile alone), and
/// non-square grids with two and three `k` tiles.
const SHAPES_WARP_TILED: [(usize, usize, usize); 10] = [
    (1, 1, 1),
    (33, 65, 17),
    (130, 127, 9),
    (129, 131, 33),
    (200, 68, 48),
    (128, 128, 24),
    (128, 128, 16),
    (256, 128, 48),
    (128, 384, 32),
    (384, 256, 16),
];

#[test]
fn sgemm_warp_tiled_matches_the_reference_and_fmas_in_k_order() {
    let tile = SGEMM_WARP_TILE_128X128;
    let mut whole_shapes = 0;
    let mut shapes = SHAPES_WARP_TILED.to_vec();
    shapes.extend(odd_shapes());
    for (m, n, k) in shapes {
        let dims = (m as u32, n as u32, k as u32);
        let (c, a, b) = run_f32(sgemm_warp_tiled, warp_tile_config(m, n), (m, n, k));
        let (expected, scale) = matmul(&a, &b, m, k, n);
        assert_close(&c, &expected, &scale, &format!("sgemm_warp_tiled {m}×{n}×{k}"));
        // Each output is f32 FMAs in increasing k order from zero, as in every register-blocked tile.
        let sequential = fma_in_k_order(&a, &b, (m, n, k));
        assert!(
            c.iter().zip(&sequential).all(|(x, y)| x.to_bits() == y.to_bits()),
            "sgemm_warp_tiled {m}×{n}×{k} differs from f32 FMAs in k order"
        );
        // The launchers send whole-tile shapes (and only those) to the unguarded entry.
        let whole = tile.whole_tiles(dims.0, dims.1, dims.2);
        assert_eq!(warp_tiled_entry(dims) == "sgemm_warp_tiled_whole_tiles", whole);
        if whole {
            whole_shapes += 1;
            let (unguarded, _, _) = run_f32(sgemm_warp_tiled_whole_tiles, warp_tile_config(m, n), (m, n, k));
            assert!(
                unguarded.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
                "sgemm_warp_tiled_whole_tiles {m}×{n}×{k} differs from the guarded entry"
            );
        }
    }
    assert_eq!(whole_shapes, 4, "the whole-tile shapes of SHAPES_WARP_TILED");
}

#[test]
fn the_warp_tiled_kernel_agrees_with_the_register_blocked_one_bit_for_bit() {
    for (m, n, k) in [(67, 67, 67), (256, 128, 64)] {
        let (warp, _, _) = run_f32(sgemm_warp_tiled, warp_tile_config(m, n), (m, n, k));
        let (blocked, _, _) = run_f32(sgemm_register_blocked, register_blocked_config(m, n), (m, n, k));
        assert!(
            warp.iter().zip(&blocked).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{m}×{n}×{k}: the warp-tiled and register-blocked kernels differ"
        );
    }
}

#[test]
fn the_warp_tiled_kernel_needs_all_of_its_shared_memory() {
    // One stage: the second runs past it.
    let tile = SGEMM_WARP_TILE_128X128;
    let (m, n, k) = (8, 8, 2 * tile.depth as usize);
    let a = aligned_floats(m * k, |i| value(i, 5));
    let b = aligned_floats(k * n, |i| value(i, 6));
    let mut c = aligned_floats(m * n, |_| 0.0);
    let mut emu = Emulator::new();
    let (pa, pb) = (emu.global(F32x4::as_floats(&a)), emu.global(F32x4::as_floats(&b)));
    let pc = emu.global_mut(F32x4::as_floats_mut(&mut c));
    let config = LaunchConfig::new(Dim3::xy(1, 1), Dim3::x(tile.threads()), tile.shared_bytes() / 2);
    // SAFETY: the global buffers are large enough; only the shared memory is short, which the emulator checks.
    let err = emu
        .launch(config, || unsafe {
            sgemm_warp_tiled(pa, pb, pc, m as u32, n as u32, k as u32)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
}
