//! The memory-claims experiments' pure host functions, without a GPU: the
//! bank-conflict model, the chase rings, the latency working sets and
//! levels, and the launchers' shape checks.

use kernels_gpu::device::CONSTANT_WORDS;
use ptxsuite::launchers::{
    BankAccess, BankKernel, ConstantSpace, LocalArrayKernel, bank_kernel_shape, check_slot_links, constant_chase_shape,
    local_array_shape, occupancy_chase_shape, occupancy_copy_shape, pointer_ring_words,
    shared_bytes_for_resident_blocks, shared_pointer_chase_shape,
};
use ptxsuite::reference::{
    LatencyPlateau, MemoryLevel, chase_successors, conflict_degree, follow_successors, latency_levels,
    latency_plateaus, latency_working_sets, strided_lane_addresses,
};

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Passes a warp needs on today's 32 banks of 4 bytes.
fn degree(stride: u64, access_bytes: u64) -> u32 {
    conflict_degree(&strided_lane_addresses(stride, access_bytes), 4, 32, access_bytes)
}

#[test]
fn four_byte_strides_conflict_as_the_guides_say() {
    // The OpenCL guide: lanes t and t + n collide when s * n is a multiple of the banks,
    // so a stride s makes gcd(s, 32)-way conflicts; odd strides none.
    for stride in 1..=32 {
        assert_eq!(degree(stride, 4) as u64, gcd(stride, 32), "stride {stride}");
    }
    assert_eq!(degree(33, 4), 1, "the padded [32][33] tile's column");
    assert_eq!(degree(0, 4), 1, "every lane one word: a broadcast");
}

#[test]
fn sixteen_banks_serve_half_warps_as_cc_1x_did() {
    // cc 1.x: 16 banks, a request per half-warp; odd strides conflict-free in each half.
    let cc1 = |stride| conflict_degree(&strided_lane_addresses(stride, 4), 4, 16, 4);
    assert_eq!(cc1(1), 2);
    assert_eq!(cc1(3), 2);
    assert_eq!(cc1(2), 4);
    assert_eq!(cc1(16), 32);
}

#[test]
fn wide_accesses_are_served_in_half_and_quarter_warps() {
    assert_eq!(degree(1, 8), 2, "256 bytes: two half-warp passes");
    assert_eq!(degree(2, 8), 4, "16 bytes apart: two lanes per bank in each half-warp");
    assert_eq!(
        degree(16, 8),
        32,
        "128 bytes apart: every lane of a half-warp in the same two banks"
    );
    assert_eq!(
        degree(0, 8),
        2,
        "a broadcast still has two half-warps (the model does not merge them)"
    );
    assert_eq!(degree(1, 16), 4, "512 bytes: four quarter-warp passes");
    assert_eq!(degree(2, 16), 8);
    assert_eq!(degree(8, 16), 32);
}

#[test]
fn lanes_sharing_a_word_count_once_and_the_busiest_bank_decides() {
    // Words 0 and 32 are both in bank 0; three lanes on word 0, one on word 32, one on word 1.
    assert_eq!(conflict_degree(&[0, 0, 0, 128, 4], 4, 32, 4), 2);
    // A byte inside word 0 is word 0.
    assert_eq!(conflict_degree(&[0, 1, 2, 3], 4, 32, 1), 1);
    assert_eq!(conflict_degree(&[], 4, 32, 4), 0);
}

#[test]
fn chase_successors_make_one_cycle_through_every_slot() {
    for slots in [1usize, 2, 3, 10, 1000, 4097] {
        for seed in [0, 1, 12345] {
            let next = chase_successors(slots, seed);
            assert_eq!(next.len(), slots);
            let mut seen = vec![false; slots];
            let mut slot = 0u32;
            for _ in 0..slots {
                assert!(
                    !seen[slot as usize],
                    "slot {slot} visited twice ({slots} slots, seed {seed})"
                );
                seen[slot as usize] = true;
                slot = next[slot as usize];
            }
            assert_eq!(slot, 0, "back at the start after {slots} steps");
            assert!(seen.iter().all(|&s| s));
        }
    }
    assert_eq!(chase_successors(100, 7), chase_successors(100, 7), "seeded: repeatable");
    assert_ne!(chase_successors(100, 7), chase_successors(100, 8));
    let next = chase_successors(1000, 3);
    let in_order = (0..1000).filter(|&i| next[i] as usize == (i + 1) % 1000).count();
    assert!(in_order < 10, "{in_order} slots link to their neighbour: not random");
}

#[test]
fn follow_successors_counts_steps() {
    let next = [2u32, 0, 1]; // 0 → 2 → 1 → 0
    assert_eq!(follow_successors(&next, 0, 0), 0);
    assert_eq!(follow_successors(&next, 0, 1), 2);
    assert_eq!(follow_successors(&next, 0, 2), 1);
    assert_eq!(follow_successors(&next, 1, 4), 0);
}

#[test]
fn pointer_ring_words_link_each_slot_to_its_successor() {
    let next = [2u32, 0, 1];
    let words = pointer_ring_words(0x1000, 32, &next);
    assert_eq!(words.len(), 12);
    assert_eq!(words[0], 0x1000 + 2 * 32);
    assert_eq!(words[4], 0x1000);
    assert_eq!(words[8], 0x1000 + 32);
    assert!(
        words
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 != 0)
            .all(|(_, &w)| w == 0)
    );
}

#[test]
fn working_sets_run_from_1_kib_to_the_cap_in_slot_multiples() {
    let sets = latency_working_sets(u64::MAX, 2, 128);
    assert_eq!(sets.first(), Some(&1024));
    assert_eq!(sets.last(), Some(&(4 << 30)), "capped at 4 GiB");
    assert_eq!(sets.len(), 2 * 22 + 1, "two points per doubling, 22 doublings");
    assert!(sets.windows(2).all(|w| w[0] < w[1]));
    assert!(sets.iter().all(|s| s % 128 == 0));
    let small = latency_working_sets(100 << 10, 4, 256);
    assert!(small.last().copied().unwrap() <= 100 << 10);
    assert!(small.iter().all(|s| s % 256 == 0));
    let coarse = latency_working_sets(8 << 10, 4, 1024);
    assert_eq!(
        coarse,
        [1024, 2048, 3072, 4096, 5120, 6144, 8192],
        "rounded down, repeats dropped"
    );
}

/// A staircase: L1 at 30 cycles, L2 at 250, device memory at 600, a TLB step at 720,
/// with transitions between and ±3% noise.
fn staircase() -> Vec<(u64, f64)> {
    let noise = [1.0, 1.03, 0.98, 1.01, 0.97, 1.02];
    let level = |bytes: u64| -> f64 {
        match bytes {
            b if b <= 128 << 10 => 30.0,
            b if b <= 256 << 10 => 90.0,
            b if b <= 32 << 20 => 250.0,
            b if b <= 64 << 20 => 420.0,
            b if b <= 1 << 30 => 600.0,
            _ => 720.0,
        }
    };
    latency_working_sets(4 << 30, 1, 128)
        .into_iter()
        .enumerate()
        .map(|(i, bytes)| (bytes, level(bytes) * noise[i % noise.len()]))
        .collect()
}

#[test]
fn plateaus_of_a_staircase_are_its_levels() {
    let plateaus = latency_plateaus(&staircase(), 0.1, 2);
    let summary: Vec<(u64, u64, i64)> = plateaus
        .iter()
        .map(|p| (p.from_bytes, p.to_bytes, p.cycles.round() as i64))
        .collect();
    assert_eq!(summary.len(), 4, "{summary:?}");
    assert_eq!((summary[0].0, summary[0].1), (1 << 10, 128 << 10));
    assert!((summary[0].2 - 30).abs() <= 1);
    assert_eq!((summary[1].0, summary[1].1), (512 << 10, 32 << 20));
    assert!((summary[1].2 - 250).abs() <= 8);
    assert_eq!((summary[2].0, summary[2].1), (128 << 20, 1 << 30));
    assert!((summary[2].2 - 600).abs() <= 18);
    assert_eq!((summary[3].0, summary[3].1), (2 << 30, 4 << 30));
    let levels: Vec<MemoryLevel> = latency_levels(&plateaus, 50 << 20)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert_eq!(
        levels,
        [
            MemoryLevel::L1,
            MemoryLevel::L2 { step: 0 },
            MemoryLevel::DeviceMemory { step: 0 },
            MemoryLevel::DeviceMemory { step: 1 }
        ]
    );
    assert_eq!(
        MemoryLevel::DeviceMemory { step: 1 }.label(),
        "device memory, TLB step 1"
    );
}

#[test]
fn one_noisy_point_does_not_split_a_plateau_and_order_does_not_matter() {
    let mut curve: Vec<(u64, f64)> = (10..20).map(|k| (1u64 << k, 100.0)).collect();
    curve[4].1 = 180.0;
    curve.reverse();
    let plateaus = latency_plateaus(&curve, 0.1, 2);
    assert_eq!(
        plateaus,
        [LatencyPlateau {
            from_bytes: 1 << 10,
            to_bytes: 1 << 19,
            cycles: 100.0,
            points: 9,
        }]
    );
    assert!(latency_plateaus(&[], 0.1, 2).is_empty());
}

#[test]
fn bank_kernel_shapes_keep_every_access_inside_the_table() {
    for kernel in BankKernel::ALL {
        let checksums = kernel.checksums(256, 4) as usize;
        let shape = bank_kernel_shape(kernel, kernel.max_stride(), 256, 4, 16, checksums).unwrap();
        assert_eq!(shape.shared_bytes as u64, 2049 * kernel.access().bytes());
        assert_eq!((shape.grid.x, shape.block.x), (4, 256));
        assert!(bank_kernel_shape(kernel, kernel.max_stride() + 1, 256, 4, 16, checksums).is_err());
        assert!(
            bank_kernel_shape(kernel, 1, 48, 4, 16, checksums).is_err(),
            "partial warps"
        );
        assert!(bank_kernel_shape(kernel, 1, 1056, 4, 16, 1 << 20).is_err());
        assert!(bank_kernel_shape(kernel, 1, 256, 0, 16, checksums).is_err());
        assert!(
            bank_kernel_shape(kernel, 1, 256, 4, 15, checksums).is_err(),
            "four span words per block"
        );
        assert!(bank_kernel_shape(kernel, 1, 256, 4, 16, checksums - 1).is_err());
    }
    assert_eq!(BankKernel::StridedRead(BankAccess::Bytes4).max_stride(), 33);
    assert_eq!(BankKernel::TileColumnRead.max_stride(), 64);
    assert_eq!(
        BankKernel::StridedWrite(BankAccess::Bytes16).checksums(256, 4),
        1024,
        "each thread's share of its block's table"
    );
    assert_eq!(BankKernel::StridedRead(BankAccess::Bytes16).checksums(256, 4), 1024);
}

#[test]
fn constant_chase_shapes() {
    for space in ConstantSpace::ALL {
        let shape = constant_chase_shape(space, 256, 32, (32, 10), 40, 320).unwrap();
        let shared = if space == ConstantSpace::Shared { 1024 } else { 0 };
        assert_eq!(shape.shared_bytes, shared, "{space:?}");
        assert!(constant_chase_shape(space, 256, 0, (32, 10), 40, 320).is_err());
        assert!(constant_chase_shape(space, 256, 33, (32, 10), 40, 320).is_err());
        assert!(
            constant_chase_shape(space, 16, 1, (32, 10), 40, 320).is_err(),
            "lanes would start past the table"
        );
        assert!(constant_chase_shape(space, CONSTANT_WORDS + 32, 1, (32, 10), 40, 320).is_err());
        assert!(
            constant_chase_shape(space, 256, 1, (40, 10), 40, 400).is_err(),
            "partial warps"
        );
        assert!(
            constant_chase_shape(space, 256, 1, (32, 10), 39, 320).is_err(),
            "four span words per block"
        );
        assert!(constant_chase_shape(space, 256, 1, (32, 10), 40, 319).is_err());
    }
}

#[test]
fn local_array_shapes() {
    for kernel in LocalArrayKernel::ALL {
        assert!(local_array_shape(kernel, 0, (1024, 2), 2048).is_ok());
        assert!(local_array_shape(kernel, 0, (1025, 2), 4096).is_err());
        assert!(local_array_shape(kernel, 0, (100, 2), 199).is_err());
        let shifted = local_array_shape(kernel, 3, (100, 2), 200);
        assert_eq!(shifted.is_ok(), kernel == LocalArrayKernel::DynamicIndex, "{kernel:?}");
    }
    assert_eq!(LocalArrayKernel::Spilled.max_block_threads(), 1024);
}

#[test]
fn shared_pointer_chase_shapes() {
    let shape = shared_pointer_chase_shape(1000, 999, 256, 48 << 10, 3).unwrap();
    assert_eq!((shape.grid.x, shape.block.x, shape.shared_bytes), (1, 256, 4000));
    assert!(
        shared_pointer_chase_shape(1000, 1000, 256, 48 << 10, 3).is_err(),
        "start past the ring"
    );
    assert!(
        shared_pointer_chase_shape(20000, 0, 256, 48 << 10, 3).is_err(),
        "ring past shared memory"
    );
    assert!(shared_pointer_chase_shape(0, 0, 256, 48 << 10, 3).is_err());
    assert!(
        shared_pointer_chase_shape(10, 0, 256, 48 << 10, 2).is_err(),
        "three output words"
    );
}

#[test]
fn occupancy_shapes_cover_any_count_with_one_item_per_thread() {
    for block in [32u32, 48, 96, 200, 1000, 1024] {
        let shape = occupancy_copy_shape(1_000_003, block, 8192, 1_000_003, 2_000_000).unwrap();
        assert_eq!(shape.grid.x, 1_000_003u32.div_ceil(block));
        assert_eq!((shape.block.x, shape.shared_bytes), (block, 8192));
    }
    assert!(occupancy_copy_shape(1001, 256, 0, 1000, 2000).is_err());
    assert!(occupancy_copy_shape(0, 256, 0, 1000, 1000).is_err());
    assert!(occupancy_copy_shape(100, 0, 0, 1000, 1000).is_err());
    assert!(occupancy_copy_shape(100, 1025, 0, 1000, 1000).is_err());
    assert!(occupancy_chase_shape(300, 96, 0, 300, 300).is_ok());
    assert!(
        occupancy_chase_shape(301, 96, 0, 300, 400).is_err(),
        "a slot per thread"
    );
    assert!(occupancy_chase_shape(300, 96, 0, 400, 299).is_err());
}

#[test]
fn shared_memory_steps_walk_resident_blocks_down_to_one() {
    // A model SM: 228 KiB of shared memory, 1 KiB reserved per block, at most 16 blocks.
    let resident = |shared: u32| Ok((228 * 1024 / (shared + 1024)).min(16) as i32);
    let points = shared_bytes_for_resident_blocks(227 * 1024, 1024, resident).unwrap();
    assert_eq!(points.first(), Some(&(16, 0)));
    assert_eq!(points.last().map(|p| p.0), Some(1));
    assert!(points.windows(2).all(|w| w[0].0 > w[1].0 && w[0].1 < w[1].1));
    for &(blocks, shared) in &points {
        assert_eq!(resident(shared).unwrap() as u32, blocks);
        if shared > 0 {
            assert!(
                resident(shared - 1024).unwrap() as u32 > blocks,
                "{shared} is the smallest for {blocks}"
            );
        }
    }
    assert!(shared_bytes_for_resident_blocks(1024, 0, resident).is_err());
}

#[test]
fn slot_rings_must_stay_inside_themselves() {
    assert!(check_slot_links(&chase_successors(50, 1)).is_ok());
    assert!(check_slot_links(&[1, 2, 3]).is_err());
    assert!(check_slot_links(&[]).is_err());
}
