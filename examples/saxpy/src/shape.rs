//! Launch shapes, checked on the host before any launch: the kernels do not
//! check their indices, so a wrong shape is caught here or nowhere.

use std::fmt;

/// A one-dimensional launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    /// Blocks.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: u32,
}

/// Why a launch shape is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// A block of 0 or more than 1024 threads, or (for the reduction) not a power of two.
    Block(u32),
    /// `n` elements do not fit the kernels' `u32` indices at this block size.
    TooManyElements(usize),
    /// No elements: there is nothing to launch.
    Empty,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Block(block) => write!(f, "a block of {block} threads is not allowed here"),
            ShapeError::TooManyElements(n) => write!(f, "{n} elements do not fit u32 indices"),
            ShapeError::Empty => write!(f, "no elements"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// `ceil(n / block)` blocks of `block` threads, with every thread index
/// (`grid · block`) inside a `u32`.
fn cover(n: usize, block: u32) -> Result<u32, ShapeError> {
    if block == 0 || block > 1024 {
        return Err(ShapeError::Block(block));
    }
    if n == 0 {
        return Err(ShapeError::Empty);
    }
    let grid = n.div_ceil(block as usize);
    if (grid as u64) * (block as u64) > u32::MAX as u64 {
        return Err(ShapeError::TooManyElements(n));
    }
    Ok(grid as u32)
}

/// The shape of `saxpy` over `n` elements (both buffers at least `n` long).
pub fn saxpy_shape(n: usize, block: u32) -> Result<LaunchShape, ShapeError> {
    Ok(LaunchShape {
        grid: cover(n, block)?,
        block,
        shared_bytes: 0,
    })
}

/// The shape of `block_sum` over `n` elements: `block` a power of two, one
/// `f32` of shared memory per thread; it writes `grid` partial sums.
pub fn block_sum_shape(n: usize, block: u32) -> Result<LaunchShape, ShapeError> {
    if !block.is_power_of_two() {
        return Err(ShapeError::Block(block));
    }
    Ok(LaunchShape {
        grid: cover(n, block)?,
        block,
        shared_bytes: 4 * block,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_covers_every_element_once() {
        assert_eq!(saxpy_shape(1000, 256).unwrap().grid, 4);
        assert_eq!(saxpy_shape(1024, 256).unwrap().grid, 4);
        assert_eq!(saxpy_shape(1, 1024).unwrap().grid, 1);
        let sum = block_sum_shape(1025, 512).unwrap();
        assert_eq!((sum.grid, sum.block, sum.shared_bytes), (3, 512, 2048));
    }

    #[test]
    fn bad_blocks_and_sizes_are_refused() {
        assert_eq!(saxpy_shape(10, 0), Err(ShapeError::Block(0)));
        assert_eq!(saxpy_shape(10, 1025), Err(ShapeError::Block(1025)));
        assert_eq!(block_sum_shape(10, 96), Err(ShapeError::Block(96)));
        assert_eq!(saxpy_shape(0, 256), Err(ShapeError::Empty));
        // The last block's indices would pass u32::MAX.
        let n = u32::MAX as usize - 10;
        assert_eq!(saxpy_shape(n, 256), Err(ShapeError::TooManyElements(n)));
        assert!(saxpy_shape(n, 1).is_ok());
    }
}
