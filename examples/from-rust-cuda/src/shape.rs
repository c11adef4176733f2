//! Launch shapes, checked on the host before any launch: the kernels trust
//! their indices, so a wrong shape is caught here or nowhere.

use std::fmt;

use crate::gpu::WARP_SUM_THREADS;

/// A launch: grid and block in x and y.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    /// Blocks (x, y).
    pub grid: (u32, u32),
    /// Threads per block (x, y).
    pub block: (u32, u32),
}

/// Why a shape is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// Nothing to launch.
    Empty,
    /// Buffers of different lengths.
    Lengths(usize, usize),
    /// The indices would not fit the kernels' `u32` thread indices.
    TooLarge(usize),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Empty => write!(f, "no elements"),
            ShapeError::Lengths(a, b) => write!(f, "buffers of {a} and {b} elements"),
            ShapeError::TooLarge(n) => write!(f, "{n} elements do not fit u32 thread indices"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// `ceil(n / block)` blocks whose thread indices fit a `u32`.
fn cover(n: usize, block: u32) -> Result<u32, ShapeError> {
    if n == 0 {
        return Err(ShapeError::Empty);
    }
    let grid = n.div_ceil(block as usize);
    if grid as u64 * block as u64 > u32::MAX as u64 {
        return Err(ShapeError::TooLarge(n));
    }
    Ok(grid as u32)
}

/// `vecadd` over `a` and `b` (same length) with blocks of 256.
pub fn vecadd_shape(a: usize, b: usize, c: usize) -> Result<LaunchShape, ShapeError> {
    if a != b || a != c {
        return Err(ShapeError::Lengths(a, b.min(c)));
    }
    Ok(LaunchShape {
        grid: (cover(a, 256)?, 1),
        block: (256, 1),
    })
}

/// `block_sum` (blocks of its fixed 256) or `warp_sum` (blocks of
/// `WARP_SUM_THREADS`) over `n` elements: one partial sum per block.
pub fn sum_shape(n: usize, block: u32) -> Result<LaunchShape, ShapeError> {
    debug_assert!(block == 256 || block == WARP_SUM_THREADS);
    Ok(LaunchShape {
        grid: (cover(n, block)?, 1),
        block: (block, 1),
    })
}

/// `transpose` of a `height × width` matrix with 16 × 16 blocks.
pub fn transpose_shape(width: usize, height: usize, len: usize) -> Result<LaunchShape, ShapeError> {
    if width.checked_mul(height) != Some(len) {
        return Err(ShapeError::Lengths(len, width.saturating_mul(height)));
    }
    Ok(LaunchShape {
        grid: (cover(width, 16)?, cover(height, 16)?),
        block: (16, 16),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_cover_every_element_and_refuse_mismatches() {
        assert_eq!(vecadd_shape(1000, 1000, 1000).unwrap().grid, (4, 1));
        assert_eq!(vecadd_shape(1000, 999, 1000), Err(ShapeError::Lengths(1000, 999)));
        assert_eq!(sum_shape(1025, 256).unwrap().grid, (5, 1));
        assert_eq!(transpose_shape(33, 17, 33 * 17).unwrap().grid, (3, 2));
        assert_eq!(transpose_shape(33, 17, 500), Err(ShapeError::Lengths(500, 561)));
        assert_eq!(sum_shape(0, 256), Err(ShapeError::Empty));
    }
}
