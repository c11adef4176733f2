//! The compute capability the kernel crate is built for (Rust-CUDA's
//! `cuda_std::cfg`), read from the build's `-Ctarget-cpu` (which
//! `ptx-builder` sets for every crate) instead of a `CUDA_ARCH` variable.

/// A compute capability; the order is the architectures' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ComputeCapability {
    /// sm_35.
    Compute35,
    /// sm_37.
    Compute37,
    /// sm_50.
    Compute50,
    /// sm_52.
    Compute52,
    /// sm_53.
    Compute53,
    /// sm_60.
    Compute60,
    /// sm_61.
    Compute61,
    /// sm_62.
    Compute62,
    /// sm_70.
    Compute70,
    /// sm_72.
    Compute72,
    /// sm_75.
    Compute75,
    /// sm_80 and every newer architecture (Rust-CUDA's list ends here).
    Compute80,
}

impl ComputeCapability {
    /// The architecture the PTX is built for (a constant: comparisons fold
    /// away the paths not taken). rustc's nvptx target starts at sm_70. In the
    /// emulator, which offers every operation, [`ComputeCapability::Compute80`].
    #[inline(always)]
    pub fn from_cuda_arch_env() -> Self {
        if cfg!(any(not(target_arch = "nvptx64"), target_feature = "sm_80")) {
            Self::Compute80
        } else if cfg!(target_feature = "sm_75") {
            Self::Compute75
        } else if cfg!(target_feature = "sm_72") {
            Self::Compute72
        } else {
            Self::Compute70
        }
    }
}
