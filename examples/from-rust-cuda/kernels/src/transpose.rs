use cuda_std::prelude::*;

/// Side of the square blocks [`transpose`] is launched with.
pub const TILE: u32 = 16;

/// `output[x · height + y] = input[y · width + x]`: the transpose of a
/// `height × width` row-major matrix, one element per thread of a 2-D
/// launch indexed with `thread::index_2d()` (x along a row, y down the columns).
///
/// Launch: blocks of `TILE × TILE` threads (any 2-D shape works),
/// `ceil(width / 16) × ceil(height / 16)` blocks.
///
/// # Safety
/// `input.len()` must be at least `width · height`, and `output` must hold as many.
#[kernel]
#[allow(improper_ctypes_definitions)]
pub unsafe fn transpose(input: &[f32], output: *mut f32, width: usize, height: usize) {
    let idx = thread::index_2d();
    let (x, y) = (idx.x as usize, idx.y as usize);
    if x < width && y < height {
        unsafe { *output.add(x * height + y) = input[y * width + x] };
    }
}
