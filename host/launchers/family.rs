//! What a kernel family declares beside its launcher (`FAMILY`) for the
//! lists every family joins: its PTX entries, its OpenCL C twins' kernels, the
//! shapes its entries are reported with, and whether it is one of the memory
//! claims. [`families`](super::families) gathers them.

use crate::gpu::LaunchShape;

/// A family's declaration of the shapes its entries are reported with:
/// `Some` for an entry of the family, `None` for any other.
pub(in crate::launchers) type FamilyNominalShape = fn(&str) -> Option<LaunchShape>;

/// One kernel family, as its launcher declares it.
#[derive(Clone, Copy)]
pub(in crate::launchers) struct Family {
    /// The PTX entries the Rust module must define (`tests/ptx_checks.rs`).
    pub ptx_entries: &'static [&'static str],
    /// The kernels of its OpenCL C twins' file, in their order there.
    pub opencl_c_kernels: &'static [&'static str],
    /// Its nominal shapes; `None` where its blocks are `COPY_BLOCK_THREADS`
    /// threads without shared memory.
    pub nominal_shape: Option<FamilyNominalShape>,
    /// A family of the memory claims (bank conflicts, constant and local
    /// memory, latency, occupancy), whose CUDA C twins are checked entry by entry.
    pub memory_claims: bool,
}

impl Family {
    /// A family that declares nothing: the base of each family's `FAMILY`
    /// (`Family { ptx_entries: PTX_ENTRIES, ..Family::NONE }`).
    pub const NONE: Self = Self {
        ptx_entries: &[],
        opencl_c_kernels: &[],
        nominal_shape: None,
        memory_claims: false,
    };
}
