//! `dim3`: the shape of a grid or a block, and an index in one.

/// A grid or block extent, or an index in one, as CUDA's `dim3`.
///
/// A host-side value (the emulator's launch shape and fault locations);
/// kernels read their own indices with [`thread_idx_x`](crate::thread_idx_x)
/// and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// The fastest-varying component.
    pub x: u32,
    /// The middle component.
    pub y: u32,
    /// The slowest-varying component.
    pub z: u32,
}

impl Dim3 {
    /// An index or extent with all three components.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }

    /// A one-dimensional extent `(x, 1, 1)`.
    pub const fn x(x: u32) -> Self {
        Self { x, y: 1, z: 1 }
    }

    /// A two-dimensional extent `(x, y, 1)`.
    pub const fn xy(x: u32, y: u32) -> Self {
        Self { x, y, z: 1 }
    }

    /// Number of elements `x * y * z`, widened so it cannot overflow.
    pub const fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}
