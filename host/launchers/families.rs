//! Every kernel family, each declared beside its launcher (`FAMILY`), and the
//! lists derived from them: the PTX entries (`tests/ptx_checks.rs` checks the
//! module defines each), the memory claims' entries (whose CUDA C twins are
//! checked entry by entry), the kernels of the OpenCL C twins' program and the
//! nominal shapes. A kernel joins its family's lists in its launcher; a new
//! family adds its `FAMILY` there and one line here.

use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::family::Family;
use crate::gpu::LaunchShape;

/// Every family. The order is that of the OpenCL C twins' files in
/// [`OPENCL_C_SOURCE`](crate::opencl::OPENCL_C_SOURCE): a new family with a
/// `.cl` file, whose file joins the program last, joins this list last.
const FAMILIES: &[Family] = &[
    super::global_memory::FAMILY,
    super::texture_2d::FAMILY,
    super::matrix_vector::FAMILY,
    super::guide_multiply::FAMILY,
    super::sgemm::FAMILY,
    super::streams::FAMILY,
    super::divergence::FAMILY,
    super::diagnostics::FAMILY,
    super::particles::FAMILY,
    super::compat_layer::FAMILY,
    super::shared_memory_banks::FAMILY,
    super::constant_memory::FAMILY,
    super::local_memory::FAMILY,
    super::latency::FAMILY,
    super::occupancy::FAMILY,
    super::reduction::FAMILY,
];

/// The entries of the memory-claims families, family by family.
pub fn memory_claims_entries() -> impl Iterator<Item = &'static str> {
    entries_of(|family| family.memory_claims)
}

/// Every family's entries (the memory-claims families last), family by family.
pub fn ptx_entries() -> impl Iterator<Item = &'static str> {
    entries_of(|family| !family.memory_claims).chain(memory_claims_entries())
}

fn entries_of(pick: fn(&Family) -> bool) -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .filter(move |family| pick(family))
        .flat_map(|family| family.ptx_entries.iter().copied())
}

/// Every kernel of the OpenCL C twins' program
/// ([`OPENCL_C_SOURCE`](crate::opencl::OPENCL_C_SOURCE)), family by family.
pub fn opencl_c_kernels() -> Vec<&'static str> {
    FAMILIES
        .iter()
        .flat_map(|family| family.opencl_c_kernels.iter().copied())
        .collect()
}

/// The block (threads, dynamic shared bytes) a kernel is launched with, for
/// reports of occupancy: taken from the launchers' own shape functions on a
/// small valid problem, as each family declares beside its launcher.
/// Kernels without a family of their own (the copies, `fma_chain`,
/// `spin_wait`) use [`COPY_BLOCK_THREADS`] and no shared memory.
pub fn nominal_shape(kernel: &str) -> LaunchShape {
    // The whole-tile entries launch exactly like their guarded ones.
    let kernel = kernel.strip_suffix("_whole_tiles").unwrap_or(kernel);
    FAMILIES
        .iter()
        .filter_map(|family| family.nominal_shape)
        .find_map(|family| family(kernel))
        .unwrap_or(LaunchShape {
            grid: Dim3::x(1),
            block: Dim3::x(COPY_BLOCK_THREADS),
            shared_bytes: 0,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::{KERNELS_PTX, entry_points};

    /// The nominal shape of an entry does not depend on the order of
    /// [`FAMILIES`]: no entry of the module is claimed by two families.
    #[test]
    fn no_entry_has_two_families_nominal_shapes() {
        for entry in entry_points(KERNELS_PTX) {
            let kernel = entry.strip_suffix("_whole_tiles").unwrap_or(&entry);
            // Each claiming family, by its place in FAMILIES.
            let claimed: Vec<usize> = (0..FAMILIES.len())
                .filter(|&i| FAMILIES[i].nominal_shape.is_some_and(|shape| shape(kernel).is_some()))
                .collect();
            assert!(
                claimed.len() <= 1,
                "{entry} is claimed by families {claimed:?} of FAMILIES"
            );
        }
    }

    /// Each family's entries are its own: no entry or OpenCL C kernel is listed twice.
    #[test]
    fn no_entry_is_listed_twice() {
        for list in [ptx_entries().collect::<Vec<_>>(), opencl_c_kernels()] {
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), list.len(), "{list:?}");
        }
    }
}
