//! `float4`: four `f32`s loaded and stored as one 128-bit access.

use core::simd::f32x4;

/// Four `f32`s moved as one 128-bit word (CUDA C's `float4`).
///
/// A portable-SIMD vector underneath: LLVM keeps it a `<4 x float>`, so a
/// load or store is a single `ld.global.v4.b32` / `st.global.v4.b32`. (A plain
/// `#[repr(align(16))] [f32; 4]` is split into two 64-bit accesses.)
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct F32x4(pub f32x4);

impl F32x4 {
    /// The vector of these four lanes (no instruction: registers only).
    pub const fn from_array(values: [f32; 4]) -> Self {
        Self(f32x4::from_array(values))
    }

    /// The four lanes (no instruction: registers only).
    pub const fn to_array(self) -> [f32; 4] {
        self.0.to_array()
    }

    /// A slice of vectors seen as the floats they hold (16-byte-aligned
    /// float storage, as `cuMemAlloc` gives, for host-side code and tests).
    pub fn as_floats(vectors: &[Self]) -> &[f32] {
        // SAFETY: F32x4 is four f32 lanes without padding; the slice covers exactly that memory.
        unsafe { core::slice::from_raw_parts(vectors.as_ptr().cast::<f32>(), vectors.len() * 4) }
    }

    /// As [`as_floats`](Self::as_floats), writable.
    pub fn as_floats_mut(vectors: &mut [Self]) -> &mut [f32] {
        // SAFETY: as above, with exclusive access.
        unsafe { core::slice::from_raw_parts_mut(vectors.as_mut_ptr().cast::<f32>(), vectors.len() * 4) }
    }
}
