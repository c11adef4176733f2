//! The PTX entries of every kernel family, as each declares them beside its
//! launcher (`PTX_ENTRIES`); `tests/ptx_checks.rs` checks that the module
//! defines each. A kernel joins its family's list there; a new family adds
//! one line here.

use super::{
    compat_layer, constant_memory, diagnostics, global_memory, guide_multiply, latency, local_memory, matrix_vector,
    occupancy, particles, reduction, sgemm, shared_memory_banks, streams, texture_2d,
};

/// The families of the memory claims (bank conflicts, constant and local
/// memory, latency, occupancy), whose CUDA C twins are checked entry by entry.
const MEMORY_CLAIMS_FAMILIES: [&[&str]; 5] = [
    shared_memory_banks::PTX_ENTRIES,
    constant_memory::PTX_ENTRIES,
    local_memory::PTX_ENTRIES,
    latency::PTX_ENTRIES,
    occupancy::PTX_ENTRIES,
];

/// Every other family that declares its entries.
const OTHER_FAMILIES: [&[&str]; 10] = [
    global_memory::PTX_ENTRIES,
    texture_2d::PTX_ENTRIES,
    matrix_vector::PTX_ENTRIES,
    guide_multiply::PTX_ENTRIES,
    sgemm::PTX_ENTRIES,
    streams::PTX_ENTRIES,
    diagnostics::PTX_ENTRIES,
    particles::PTX_ENTRIES,
    compat_layer::PTX_ENTRIES,
    reduction::PTX_ENTRIES,
];

/// The entries of the memory-claims families, family by family.
pub fn memory_claims_entries() -> impl Iterator<Item = &'static str> {
    MEMORY_CLAIMS_FAMILIES.into_iter().flatten().copied()
}

/// Every family's entries (the memory-claims families last), family by family.
pub fn ptx_entries() -> impl Iterator<Item = &'static str> {
    OTHER_FAMILIES
        .into_iter()
        .flatten()
        .copied()
        .chain(memory_claims_entries())
}
