//! The element types the copy sweeps move: 2-byte `f16`, 4-byte `f32`,
//! 8-byte `f64` and 16-byte `float4`, each with its kernels, a test pattern
//! and a sentinel.

use std::fmt::Debug;

use half::f16;
use kernels_gpu::device::{F32x4, GlobalMutPtr, GlobalPtr, KernelSignature};
use kernels_gpu::global_memory::{
    offset_copy_f16_params, offset_copy_f32x4_params, offset_copy_f64_params, offset_copy_params,
    stride_copy_f16_params, stride_copy_f32x4_params, stride_copy_f64_params, stride_copy_params,
};

use crate::gpu::DeviceCopy;

/// The parameters of every offset and stride copy: output, input, and the offset or stride in elements.
pub type CopyArgs<E> = (GlobalMutPtr<E>, GlobalPtr<E>, i32);

/// An element type with offset/stride copy kernels.
pub trait CopyElement: DeviceCopy + Debug {
    /// Short name used in reports (`f16`, `f32`, ...).
    const NAME: &'static str;
    /// The element as the kernels type it: itself, or its bits (`u16` for `f16`).
    type KernelElement: Copy;
    /// The offset-copy kernel for this width: `(out, in, offset)`.
    type OffsetKernel: KernelSignature<Args = CopyArgs<Self::KernelElement>>;
    /// The stride-copy kernel for this width: `(out, in, stride)`.
    type StrideKernel: KernelSignature<Args = CopyArgs<Self::KernelElement>>;
    /// The offset-copy kernel's name.
    const OFFSET_KERNEL: &'static str = Self::OffsetKernel::NAME;
    /// The stride-copy kernel's name.
    const STRIDE_KERNEL: &'static str = Self::StrideKernel::NAME;
    /// A value the sweeps' inputs never contain.
    const SENTINEL: Self;
    /// Element `i` of the input pattern: distinct neighbours, exact in the type.
    fn pattern(i: usize) -> Self;
    /// Bitwise equality (the copies move bits; no float comparison semantics).
    fn same_bits(&self, other: &Self) -> bool;
}

impl CopyElement for f16 {
    const NAME: &'static str = "f16";
    type KernelElement = u16;
    type OffsetKernel = offset_copy_f16_params;
    type StrideKernel = stride_copy_f16_params;
    const SENTINEL: Self = f16::NEG_ONE;
    fn pattern(i: usize) -> Self {
        f16::from_f32((i % 2039) as f32) // integers up to 2048 are exact in f16
    }
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl CopyElement for f32 {
    const NAME: &'static str = "f32";
    type KernelElement = f32;
    type OffsetKernel = offset_copy_params;
    type StrideKernel = stride_copy_params;
    const SENTINEL: Self = -1.0;
    fn pattern(i: usize) -> Self {
        (i % 16_777_213) as f32 // a prime below 2^24: exact in f32
    }
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl CopyElement for f64 {
    const NAME: &'static str = "f64";
    type KernelElement = f64;
    type OffsetKernel = offset_copy_f64_params;
    type StrideKernel = stride_copy_f64_params;
    const SENTINEL: Self = -1.0;
    fn pattern(i: usize) -> Self {
        i as f64
    }
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl CopyElement for F32x4 {
    const NAME: &'static str = "f32x4";
    type KernelElement = F32x4;
    type OffsetKernel = offset_copy_f32x4_params;
    type StrideKernel = stride_copy_f32x4_params;
    const SENTINEL: Self = F32x4::from_array([-1.0; 4]);
    fn pattern(i: usize) -> Self {
        let x = (i % 4_194_301) as f32 * 4.0;
        F32x4::from_array([x, x + 1.0, x + 2.0, x + 3.0])
    }
    fn same_bits(&self, other: &Self) -> bool {
        self.to_array().map(f32::to_bits) == other.to_array().map(f32::to_bits)
    }
}

/// The input pattern for `len` elements.
pub fn pattern<T: CopyElement>(len: usize) -> Vec<T> {
    (0..len).map(T::pattern).collect()
}

/// The first index where `got` and `expected` differ, described. Checks
/// chunks on all cores: results are hundreds of MiB.
pub fn first_mismatch<T: CopyElement>(got: &[T], expected: &[T]) -> Option<String> {
    if got.len() != expected.len() {
        return Some(format!("{} elements, expected {}", got.len(), expected.len()));
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(16);
    let chunk = got.len().div_ceil(workers).max(1 << 16);
    let index = std::thread::scope(|scope| {
        let handles: Vec<_> = got
            .chunks(chunk)
            .zip(expected.chunks(chunk))
            .enumerate()
            .map(|(c, (g, e))| {
                scope.spawn(move || {
                    g.iter()
                        .zip(e)
                        .position(|(a, b)| !a.same_bits(b))
                        .map(|i| c * chunk + i)
                })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().expect("comparison thread"))
            .min()
    })?;
    Some(format!(
        "element {index} is {:?} but the CPU reference says {:?}",
        got[index], expected[index]
    ))
}
