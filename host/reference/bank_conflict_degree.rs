//! How many passes ("wavefronts") the shared memory needs for one warp request.

use std::collections::{BTreeMap, BTreeSet};

/// The number of conflict-free passes shared memory needs to serve one warp
/// request whose lane `l` accesses `access_bytes` bytes at byte address
/// `addresses_of_one_warp[l]` (lanes in order, one per active lane).
///
/// **The model**: `banks` banks of `bank_bytes`-byte words, successive words
/// in successive banks (32 banks of 4 bytes since cc 2.x; the guides' cc 1.x
/// had 16). A request moves at most `banks * bank_bytes` bytes (128) per
/// pass, so it is first split into phases of consecutive lanes: the whole
/// warp for 4-byte accesses, half-warps for 8-byte ones, quarter-warps for
/// 16-byte ones. Within a phase every access covers `access_bytes /
/// bank_bytes` consecutive words; a bank serves one distinct word per pass,
/// and lanes touching the same word share it (broadcast, multicast). The
/// phase's passes are the most distinct words any one bank holds; the
/// request's are the sum over its phases.
///
/// **Source**: the Best Practices Guide's §3.2.2.1 and the OpenCL guide's
/// §3.1.2.5 (banks, `n`-way conflicts, broadcast); the CUDA C Programming
/// Guide's compute-capability appendix for cc 2.x (64-bit accesses are
/// served a half-warp at a time, 128-bit a quarter-warp at a time) and cc
/// 5.x and later (32 banks of 4 bytes, any number of lanes may read one word).
/// On cc 2.x most 128-bit requests took one pass more than this model says;
/// on current GPUs the half-/quarter-warp phases are what Nsight Compute's
/// shared-memory wavefront counts show. The suite's measurements decide.
///
/// Two phases that read the same words (an 8-byte broadcast to both
/// half-warps) are counted twice; the hardware may merge them.
pub fn conflict_degree(addresses_of_one_warp: &[u64], bank_bytes: u64, banks: u64, access_bytes: u64) -> u32 {
    assert!(bank_bytes > 0 && banks > 0, "a shared memory needs banks of some width");
    let words_per_access = access_bytes.div_ceil(bank_bytes).max(1);
    let phase_lanes = ((banks * bank_bytes) / access_bytes.max(1)).max(1) as usize;
    addresses_of_one_warp
        .chunks(phase_lanes)
        .map(|phase| {
            let words: BTreeSet<u64> = phase
                .iter()
                .flat_map(|&address| (0..words_per_access).map(move |w| address / bank_bytes + w))
                .collect();
            let mut per_bank: BTreeMap<u64, u32> = BTreeMap::new();
            for word in words {
                *per_bank.entry(word % banks).or_default() += 1;
            }
            per_bank.into_values().max().unwrap_or(0)
        })
        .sum()
}

/// The byte addresses one warp of the strided bank kernels accesses on its
/// first access of a round: lane `l` at element `l * stride` of
/// `element_bytes`-byte elements (`stride` 0: every lane the same element).
pub fn strided_lane_addresses(stride: u64, element_bytes: u64) -> Vec<u64> {
    (0..32).map(|lane| lane * stride * element_bytes).collect()
}
