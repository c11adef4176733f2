use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use crate::copy_element::CopyElement;
use crate::error::Result;
use crate::reference;
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;

/// A CPU reference of a copy: (output, input, threads, parameter).
pub type CopyReference<T> = fn(&mut [T], &[T], usize, usize);

/// The copy family, described once for the experiments, `selftest`, the
/// benchmarks and the GPU tests: which kernel, how many threads at a
/// parameter value, what the result must be, and which values to sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CopyKernel {
    /// `offset_copy` (§3.2.1.3): element `t + offset`, offsets 0..=32.
    Offset,
    /// `stride_copy` (§3.2.1.4): element `t * stride`, strides 1..=32.
    Stride,
    /// `shift_copy` (§3.2.4.1): `out[t] = in[t + shift]`, shifts 0..=32.
    Shift,
    /// `texture_shift_copy` (§3.2.4.1): the shifted read through a texture object.
    TextureShift,
    /// `permuted_copy` (§3.2.1.1): each warp reads its own 128-byte segment in
    /// the order a key scrambles (key 0: in order) and writes in order.
    Permuted,
    /// `vector_copy`: 128-bit grid-stride copy of the whole buffer (the copy ceiling).
    Vector,
    /// The driver's `cuMemcpyDtoDAsync` on the same buffers.
    DriverCopy,
}

/// Offsets and shifts reach 32 elements past the copied range.
const ROOM: usize = 32;

const fn range<const N: usize>(first: i32) -> [i32; N] {
    let mut values = [0; N];
    let mut i = 0;
    while i < N {
        values[i] = first + i as i32;
        i += 1;
    }
    values
}

const ZERO_TO_32: [i32; 33] = range::<33>(0);
const ONE_TO_32: [i32; 32] = range::<32>(1);
/// Keys of `permuted_copy`: 0 in order, then scrambles (key 6 multiplies lanes by 13).
const PERMUTATION_KEYS: [i32; 6] = [0, 1, 6, 10, 21, 31];

impl CopyKernel {
    /// The kernel entry (or driver call) for element type `T`; `None` where the
    /// family has no such kernel for `T` (shifts and textures are `f32` only).
    pub fn entry<T: CopyElement>(self) -> Option<&'static str> {
        let is_f32 = T::NAME == "f32";
        Some(match self {
            Self::Offset => T::OFFSET_KERNEL,
            Self::Stride => T::STRIDE_KERNEL,
            Self::Shift if is_f32 => "shift_copy",
            Self::TextureShift if is_f32 => "texture_shift_copy",
            Self::Permuted if is_f32 => "permuted_copy",
            Self::Vector if is_f32 => "vector_copy",
            Self::DriverCopy => "cuMemcpyDtoDAsync",
            _ => return None,
        })
    }

    /// Which implementations run it: kernels in Rust and their twins, or the copy engine.
    pub fn runs_on(self, implementation: Implementation) -> bool {
        match self {
            Self::DriverCopy => implementation == Implementation::CopyEngine,
            _ => implementation == Implementation::Rust || implementation.is_kernel_twin(),
        }
    }

    /// Elements past the nominal copy the buffers need (the largest offset or shift).
    pub fn room(self) -> usize {
        match self {
            Self::Offset | Self::Shift | Self::TextureShift => ROOM,
            Self::Stride | Self::Permuted | Self::Vector | Self::DriverCopy => 0,
        }
    }

    /// Threads (elements copied) for buffers of `len` elements at `param`:
    /// whole blocks of 256, as the guide's kernels have no tail guard. One
    /// buffer size serves every stride: threads fall as 1/stride.
    pub fn threads(self, len: usize, param: i32) -> u64 {
        let block = COPY_BLOCK_THREADS as u64;
        let whole = |n: u64| n / block * block;
        let nominal = len.saturating_sub(self.room()) as u64;
        match self {
            Self::Offset | Self::Shift | Self::TextureShift | Self::Permuted => whole(nominal),
            Self::Stride => whole(nominal / param.max(1) as u64),
            Self::Vector | Self::DriverCopy => nominal,
        }
    }

    /// What the output must hold afterwards.
    pub fn reference<T: CopyElement>(self) -> CopyReference<T> {
        match self {
            Self::Offset => reference::offset_copy,
            Self::Stride => reference::stride_copy,
            // Past the copied range plus its room a texel would read as 0; the thread counts keep every fetch inside.
            Self::Shift | Self::TextureShift => reference::shift_copy,
            Self::Permuted => reference::permuted_copy,
            Self::Vector | Self::DriverCopy => reference::copy_prefix,
        }
    }

    /// The values the experiments sweep.
    pub fn sweep(self) -> &'static [i32] {
        match self {
            Self::Offset | Self::Shift | Self::TextureShift => &ZERO_TO_32,
            Self::Stride => &ONE_TO_32,
            Self::Permuted => &PERMUTATION_KEYS,
            Self::Vector | Self::DriverCopy => &[0],
        }
    }

    /// A few telling values, for `selftest` and the GPU tests.
    pub fn quick(self) -> &'static [i32] {
        match self {
            Self::Offset | Self::Shift | Self::TextureShift => &[0, 1, 7, 16, 32],
            Self::Stride => &[1, 2, 3, 8, 32],
            Self::Permuted => &[0, 6, 31],
            Self::Vector | Self::DriverCopy => &[0],
        }
    }

    /// Name of the swept parameter.
    pub fn parameter(self) -> &'static str {
        match self {
            Self::Offset => "offset",
            Self::Stride => "stride",
            Self::Shift | Self::TextureShift => "shift",
            Self::Permuted => "key",
            Self::Vector | Self::DriverCopy => "buffer MiB",
        }
    }
}

/// One programming model's side of the copy family, with its own buffers
/// (an input holding [`pattern`](crate::copy_element::pattern) and an output):
/// BabelStream's `Stream`. A runner may serve several implementations that
/// share its buffers (the Rust PTX and the CUDA C twins on one CUDA context).
pub trait CopyRunner<T: CopyElement> {
    /// The implementations this runner measures.
    fn implementations(&self) -> &[Implementation];
    /// Elements of each buffer.
    fn buffer_len(&self) -> usize;
    fn fill_output(&mut self, value: T) -> Result<()>;
    /// One launch, waited for.
    fn launch(&mut self, implementation: Implementation, kernel: CopyKernel, threads: u64, param: i32) -> Result<()>;
    /// Per-launch milliseconds of each sample ([`crate::timing::time_per_launch`]).
    fn time(
        &mut self,
        implementation: Implementation,
        kernel: CopyKernel,
        threads: u64,
        param: i32,
        settings: &RunSettings,
    ) -> Result<Vec<f64>>;
    fn read_output(&mut self, out: &mut [T]) -> Result<()>;
}

#[cfg(test)]
mod tests {
    use super::CopyKernel;
    use crate::testbed::Implementation;
    use half::f16;

    #[test]
    fn thread_counts_fill_whole_blocks_and_leave_room_for_the_parameter() {
        let len = 64 * 256 + 32;
        assert_eq!(CopyKernel::Offset.threads(len, 32), 64 * 256);
        assert_eq!(CopyKernel::Shift.threads(len, 0), 64 * 256);
        assert_eq!(CopyKernel::Stride.threads(64 * 256, 3), (64 * 256 / 3) / 256 * 256);
        assert_eq!(CopyKernel::Stride.threads(64 * 256, 1), 64 * 256);
        assert_eq!(CopyKernel::Vector.threads(1000, 0), 1000);
        assert_eq!(CopyKernel::Permuted.threads(64 * 256 + 5, 31), 64 * 256);
        assert!(CopyKernel::Permuted.sweep().iter().all(|k| (0..32).contains(k)));
        assert_eq!(CopyKernel::Permuted.sweep()[0], 0, "the in-order copy comes first");
        assert_eq!(CopyKernel::Offset.sweep().len(), 33);
        assert_eq!(CopyKernel::Stride.sweep(), (1..=32).collect::<Vec<_>>());
        // The largest offset still fits: threads + 32 <= len.
        for kernel in [CopyKernel::Offset, CopyKernel::Shift] {
            let max = *kernel.sweep().last().unwrap() as u64;
            assert!(kernel.threads(len, 0) + max <= len as u64);
        }
    }

    #[test]
    fn entries_follow_the_element_type_and_implementations() {
        assert_eq!(CopyKernel::Offset.entry::<f64>(), Some("offset_copy_f64"));
        assert_eq!(CopyKernel::Shift.entry::<f64>(), None);
        assert_eq!(CopyKernel::Permuted.entry::<f32>(), Some("permuted_copy"));
        assert_eq!(CopyKernel::Permuted.entry::<f16>(), None);
        assert_eq!(CopyKernel::TextureShift.entry::<f32>(), Some("texture_shift_copy"));
        assert!(CopyKernel::DriverCopy.runs_on(Implementation::CopyEngine));
        assert!(!CopyKernel::DriverCopy.runs_on(Implementation::Rust));
        assert!(CopyKernel::Offset.runs_on(Implementation::OpenClC));
        assert!(!CopyKernel::Offset.runs_on(Implementation::Cublas));
    }
}
