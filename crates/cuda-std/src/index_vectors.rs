//! The small vectors the index functions return (`glam`'s `UVec2`/`UVec3` in
//! Rust-CUDA, which this crate does not depend on: the same fields and the
//! few functions kernels use).

/// Two `u32` coordinates (`thread::index_2d`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UVec2 {
    /// The x coordinate.
    pub x: u32,
    /// The y coordinate.
    pub y: u32,
}

/// Three `u32` coordinates (`thread::thread_idx`, `block_dim`, ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UVec3 {
    /// The x coordinate.
    pub x: u32,
    /// The y coordinate.
    pub y: u32,
    /// The z coordinate.
    pub z: u32,
}

impl UVec2 {
    /// (0, 0).
    pub const ZERO: Self = Self::new(0, 0);

    /// `(x, y)`.
    pub const fn new(x: u32, y: u32) -> Self {
        Self { x, y }
    }

    /// `x · y` (wrapping, as on the GPU).
    pub const fn element_product(self) -> u32 {
        self.x.wrapping_mul(self.y)
    }
}

impl UVec3 {
    /// (0, 0, 0).
    pub const ZERO: Self = Self::new(0, 0, 0);

    /// `(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }

    /// `x · y · z` (wrapping, as on the GPU).
    pub const fn element_product(self) -> u32 {
        self.x.wrapping_mul(self.y).wrapping_mul(self.z)
    }
}
