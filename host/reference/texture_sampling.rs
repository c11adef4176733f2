//! What the 2-D tile kernels compute (`global_2d_tile_load`,
//! `texture_2d_tile_sample`): the warp tiles' texel order, and an exact
//! (`f64`) model of a 2-D texture fetch with the guide's Table 3.4 modes.

use crate::gpu::Sampling;

/// Every thread of a tile launch with its texel, `(t, x, y)`, built forwards
/// (tile by tile, lane by lane) rather than from the kernels' inverse
/// mapping: warp `w` takes tile `w` in row-major order over the image, its
/// 32 lanes the tile's `tile_width × (32 / tile_width)` texels row by row.
/// `width` must be a multiple of `tile_width`, `height` of `32 / tile_width`.
pub fn tile_order(width: u32, height: u32, tile_width: u32) -> impl Iterator<Item = (u64, u32, u32)> {
    let tile_height = 32 / tile_width;
    let tiles_per_row = width / tile_width;
    let tile_rows = height / tile_height;
    (0..tile_rows).flat_map(move |ty| {
        (0..tiles_per_row).flat_map(move |tx| {
            let warp = ty as u64 * tiles_per_row as u64 + tx as u64;
            (0..32u32).map(move |lane| {
                let x = tx * tile_width + lane % tile_width;
                let y = ty * tile_height + lane / tile_width;
                (warp * 32 + lane as u64, x, y)
            })
        })
    })
}

/// A 2-D texture fetch, exactly: the value of `texels` (row-major, `width`
/// a row) at `(u, v)` as the texture object of `sampling` resolves it, with
/// exact interpolation weights, and the span (largest minus smallest) of
/// the texels it read.
///
/// Normalized coordinates are first scaled by the size; wrap takes the
/// fraction of the normalized coordinate first. Point sampling reads texel
/// `floor`; linear filtering blends texels `i` and `i + 1` around `u - 0.5`
/// with weight `frac(u - 0.5)`, each index resolved by the addressing mode
/// (clamp to the edge, or modulo the size). Wrap is meant with normalized
/// coordinates, as the hardware defines it.
pub fn texture_fetch_2d(
    texels: &[f32],
    (width, height): (usize, usize),
    sampling: Sampling,
    u: f64,
    v: f64,
) -> (f64, f64) {
    let to_texels = |c: f64, n: usize| match (sampling.normalized, sampling.wrap) {
        (true, true) => (c - c.floor()) * n as f64,
        (true, false) => c * n as f64,
        (false, _) => c,
    };
    let resolve = |i: i64, n: usize| {
        if sampling.wrap {
            i.rem_euclid(n as i64) as usize
        } else {
            i.clamp(0, n as i64 - 1) as usize
        }
    };
    let (x, y) = (to_texels(u, width), to_texels(v, height));
    let at = |i: i64, j: i64| texels[resolve(j, height) * width + resolve(i, width)] as f64;
    if !sampling.linear {
        let value = at(x.floor() as i64, y.floor() as i64);
        return (value, 0.0);
    }
    let (xb, yb) = (x - 0.5, y - 0.5);
    let (i, j) = (xb.floor() as i64, yb.floor() as i64);
    let (alpha, beta) = (xb - xb.floor(), yb - yb.floor());
    let corners = [at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)];
    let value = (1.0 - alpha) * (1.0 - beta) * corners[0]
        + alpha * (1.0 - beta) * corners[1]
        + (1.0 - alpha) * beta * corners[2]
        + alpha * beta * corners[3];
    let max = corners.iter().copied().fold(f64::MIN, f64::max);
    let min = corners.iter().copied().fold(f64::MAX, f64::min);
    (value, max - min)
}

/// The largest error the hardware's filter may make, in units of the four
/// texels' span: each of the two weights is kept with 8 fractional bits
/// (an error under 1/256 each, whether rounded or truncated); the blend is
/// bilinear, its slope along either weight at most the span, so it is off
/// by under `2 / 256` of the span plus the weights' product term (`2 / 256²`).
pub const FILTER_ERROR_BOUND: f64 = 2.0 / 256.0 + 2.0 / 65536.0;

/// An absolute allowance for the hardware's `f32` blend on top of the
/// weights' error (texels lie in `[0, 1)`).
pub const FILTER_ROUNDING: f64 = 4.0 * f32::EPSILON as f64;

#[cfg(test)]
mod tests {
    use super::*;

    const POINT: Sampling = Sampling::POINT;

    #[test]
    fn tiles_cover_the_image_once_and_each_warp_reads_its_rectangle() {
        let (width, height) = (16u32, 32u32);
        for tile in [1u32, 4, 8] {
            let order: Vec<_> = tile_order(width, height, tile).collect();
            assert_eq!(order.len(), 512);
            let mut seen = vec![false; 512];
            for (t, &(gid, x, y)) in order.iter().enumerate() {
                assert_eq!(gid, t as u64, "threads in order");
                assert!(
                    !std::mem::replace(&mut seen[(y * width + x) as usize], true),
                    "texel twice"
                );
            }
            let warp0: Vec<_> = order[..32].iter().map(|&(_, x, y)| (x, y)).collect();
            assert!(
                warp0.iter().all(|&(x, y)| x < tile && y < 32 / tile),
                "tile {tile}: {warp0:?}"
            );
        }
    }

    #[test]
    fn point_sampling_reads_the_floor_texel_clamped_or_wrapped() {
        let texels: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let size = (4, 3);
        assert_eq!(texture_fetch_2d(&texels, size, POINT, 1.7, 2.2).0, 9.0);
        assert_eq!(
            texture_fetch_2d(&texels, size, POINT, 9.0, -3.0).0,
            3.0,
            "clamped to (3, 0)"
        );
        let normalized = Sampling {
            normalized: true,
            ..POINT
        };
        assert_eq!(
            texture_fetch_2d(&texels, size, normalized, 0.3, 0.5).0,
            5.0,
            "(1.2, 1.5)"
        );
        assert_eq!(
            texture_fetch_2d(&texels, size, normalized, 1.3, 0.5).0,
            7.0,
            "clamped x"
        );
        let wrap = Sampling {
            wrap: true,
            ..normalized
        };
        assert_eq!(
            texture_fetch_2d(&texels, size, wrap, 1.3, -0.5).0,
            5.0,
            "the guide's 1.3 -> 0.3"
        );
    }

    #[test]
    fn linear_filtering_blends_the_four_nearest_texels() {
        let texels = [0.0f32, 1.0, 2.0, 4.0];
        let linear = Sampling { linear: true, ..POINT };
        let (value, span) = texture_fetch_2d(&texels, (2, 2), linear, 1.25, 1.0);
        // x: 1/4 of column 0 and 3/4 of column 1; y: halfway between the rows.
        assert!((value - (0.5 * 0.75 + 0.5 * 3.5)).abs() < 1e-12, "{value}");
        assert_eq!(span, 4.0);
        assert_eq!(
            texture_fetch_2d(&texels, (2, 2), linear, 0.5, 0.5).0,
            0.0,
            "a texel centre"
        );
        assert_eq!(
            texture_fetch_2d(&texels, (2, 2), linear, -5.0, 9.0).0,
            2.0,
            "clamped to a corner"
        );
    }
}
