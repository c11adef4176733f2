//! The memory-claims kernels on a real GPU, once each on small shapes, Rust
//! and CUDA C twins: bank conflicts, constant memory, local memory, latency
//! chains and occupancy, against the CPU references; the constant array
//! found through `cuModuleGetGlobal`; the spilled kernel's local memory as the
//! JIT reports it. Without a CUDA driver or device each test prints
//! `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::device::{CONSTANT_SYMBOL, CONSTANT_WORDS};
use kernels_gpu::latency::FMA_LATENCY_UNROLL;
use kernels_gpu::launch_bounds::LAUNCH_BOUND_FOR_SPILLS;
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::launchers::{
    BankAccess, BankKernel, ChaseTable, ConstantSpace, LocalArrayKernel, OccupancyKernel, PointerRing, SlotRing,
    bank_kernel, constant_chase, fma_latency, local_array, occupancy_chase, occupancy_copy, occupancy_runners,
    pointer_chase, shared_bytes_for_resident_blocks, shared_pointer_chase,
};
use ptxsuite::testbed::{DeviceUnderTest, Implementation};
use ptxsuite::{Error, reference};

/// Prints a measured figure past the harness's capture (`gpu-checks/memclaims.sh` collects them).
fn note_figure(line: &str) {
    note_skipped(&format!("memclaims: {line}"));
}

/// Rust, and CUDA C when NVRTC is there (a GPU machine without it says so).
fn implementations(dut: &DeviceUnderTest) -> Vec<Implementation> {
    let (implementations, waived) = dut.ptx_implementations();
    for why in waived {
        note_skipped(&format!("CUDA C twins skipped: {why}"));
    }
    implementations
}

#[test]
fn gpu_bank_kernels_match_reference() {
    let Some(dut) = gpu_or_skip("gpu_bank_kernels_match_reference") else {
        return;
    };
    let (block_threads, blocks, rounds) = (128u32, 3u32, 5u32);
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), BLOCK_SPAN_WORDS * blocks as usize).unwrap();
    let mut checksums = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize).unwrap();
    for imp in implementations(&dut) {
        for kernel in BankKernel::ALL {
            let words = kernel.access().bytes() / 4;
            for stride in [0, 1, 2, 7, 32, kernel.max_stride()] {
                checksums.fill(0).unwrap();
                bank_kernel(
                    &dut,
                    imp,
                    kernel,
                    stride,
                    rounds,
                    (block_threads, blocks),
                    &mut cycles,
                    &mut checksums,
                )
                .unwrap();
                dut.gpu().synchronize().unwrap();
                let got = checksums.to_host().unwrap();
                let what = format!("{imp:?} {} stride {stride}", kernel.kernel());
                match kernel {
                    BankKernel::StridedWrite(_) => {
                        let expected = reference::bank_write_checksum(words, stride as u64, rounds as u64);
                        let sums: Vec<u32> = got
                            .chunks_exact(block_threads as usize)
                            .map(|shares| shares.iter().fold(0u32, |s, &x| s.wrapping_add(x)))
                            .collect();
                        assert_eq!(sums, vec![expected; blocks as usize], "{what}");
                    }
                    _ => {
                        let step = if kernel == BankKernel::TileColumnRead { 1 } else { 32 };
                        for (t, &sum) in got.iter().enumerate() {
                            let lane = (t % 32) as u64;
                            let expected =
                                reference::bank_read_checksum(words, stride as u64, step, rounds as u64, lane);
                            assert_eq!(sum, expected, "{what}, thread {t}");
                        }
                    }
                }
                for span in cycles.to_host().unwrap().as_chunks::<BLOCK_SPAN_WORDS>().0 {
                    assert!(span[1] > span[0] && span[3] > 0, "{what}: no span {span:?}");
                }
            }
        }
    }
}

#[test]
fn gpu_bank_conflicts_cost_cycles() {
    // A smoke test of the timing path, not the measurement: 32-way conflicts must cost
    // clearly more SM cycles than none (the guides: 32 times; 2 is a generous floor).
    let Some(dut) = gpu_or_skip("gpu_bank_conflicts_cost_cycles") else {
        return;
    };
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), BLOCK_SPAN_WORDS).unwrap();
    let mut checksums = DeviceBuffer::<u32>::uninit(dut.gpu(), 256).unwrap();
    let mut cycles_at = |kernel: BankKernel, stride: u32| {
        bank_kernel(
            &dut,
            Implementation::Rust,
            kernel,
            stride,
            64,
            (256, 1),
            &mut cycles,
            &mut checksums,
        )
        .unwrap();
        dut.gpu().synchronize().unwrap();
        let span = cycles.to_host().unwrap();
        span[1] - span[0]
    };
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    let (free, two_way, conflicted) = (cycles_at(read, 1), cycles_at(read, 2), cycles_at(read, 32));
    assert!(
        conflicted > 2 * free,
        "stride 32: {conflicted} cycles, stride 1: {free}"
    );
    let (padded, unpadded) = (
        cycles_at(BankKernel::TileColumnRead, 33),
        cycles_at(BankKernel::TileColumnRead, 32),
    );
    assert!(unpadded > 2 * padded, "pitch 32: {unpadded} cycles, pitch 33: {padded}");
    // One block of 8 warps, 64 rounds of 32 accesses each.
    let per_access = |cycles: u64| cycles as f64 / (8.0 * 64.0 * 32.0);
    note_figure(&format!(
        "4-byte shared reads, SM cycles per warp access: stride 1 {:.2}, stride 2 {:.2}, stride 32 {:.2}; tile column pitch 33 {:.2}, pitch 32 {:.2}",
        per_access(free),
        per_access(two_way),
        per_access(conflicted),
        per_access(padded),
        per_access(unpadded)
    ));
}

#[test]
fn gpu_constant_chase_matches_reference_in_every_space() {
    let Some(dut) = gpu_or_skip("gpu_constant_chase_matches_reference_in_every_space") else {
        return;
    };
    let links = reference::constant_chase_links(256);
    let table = ChaseTable::upload(dut.gpu(), &links).unwrap();
    let (block_threads, blocks, steps) = (64u32, 2u32, 100u32);
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), BLOCK_SPAN_WORDS * blocks as usize).unwrap();
    let mut sums = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize).unwrap();
    for imp in implementations(&dut) {
        for space in ConstantSpace::ALL {
            for distinct in [1, 2, 5, 32] {
                sums.fill(0).unwrap();
                constant_chase(
                    &dut,
                    imp,
                    space,
                    &table,
                    distinct,
                    steps,
                    (block_threads, blocks),
                    &mut cycles,
                    &mut sums,
                )
                .unwrap();
                dut.gpu().synchronize().unwrap();
                for (t, &sum) in sums.to_host().unwrap().iter().enumerate() {
                    let expected = reference::constant_chase_sum(&links, distinct, (t % 32) as u32, steps);
                    assert_eq!(sum, expected, "{imp:?} {space:?}, {distinct} distinct, thread {t}");
                }
            }
        }
    }
    assert!(
        ChaseTable::upload(dut.gpu(), &[40; 32]).is_err(),
        "links outside the table are refused"
    );
}

#[test]
fn gpu_constant_array_is_found_by_name_in_both_modules() {
    let Some(dut) = gpu_or_skip("gpu_constant_array_is_found_by_name_in_both_modules") else {
        return;
    };
    let rust = dut
        .module(Implementation::Rust)
        .unwrap()
        .global_symbol(CONSTANT_SYMBOL)
        .unwrap();
    assert_eq!(rust.bytes(), CONSTANT_WORDS * 4);
    match dut.module(Implementation::CudaC) {
        Ok(twins) => assert_eq!(
            twins.global_symbol(CONSTANT_SYMBOL).unwrap().bytes(),
            CONSTANT_WORDS * 4
        ),
        Err(why) => note_skipped(&format!("CUDA C twins skipped: {why}")),
    }
    assert!(matches!(
        dut.module(Implementation::Rust)
            .unwrap()
            .global_symbol("no_such_variable"),
        Err(Error::MissingSymbol(_))
    ));
}

#[test]
fn gpu_local_array_kernels_match_reference_and_the_spilled_one_spills() {
    let Some(dut) = gpu_or_skip("gpu_local_array_kernels_match_reference_and_the_spilled_one_spills") else {
        return;
    };
    let (block_threads, blocks, rounds) = (96u32, 3u32, 6u32);
    let mut out = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize).unwrap();
    for imp in implementations(&dut) {
        for kernel in LocalArrayKernel::ALL {
            let shift = if kernel == LocalArrayKernel::DynamicIndex { 5 } else { 0 };
            out.fill(0).unwrap();
            local_array(&dut, imp, kernel, (shift, rounds), (block_threads, blocks), &mut out).unwrap();
            dut.gpu().synchronize().unwrap();
            for (t, &value) in out.to_host().unwrap().iter().enumerate() {
                assert_eq!(
                    value,
                    reference::local_array(t as u32, shift, rounds),
                    "{imp:?} {kernel:?} thread {t}"
                );
            }
        }
        let local_bytes = |kernel: LocalArrayKernel| {
            dut.kernel(imp, kernel.kernel())
                .unwrap()
                .resources()
                .local_bytes_per_thread
        };
        note_figure(&format!(
            "{imp:?} local bytes a thread (JIT): registers {}, dynamic index {}, spilled {}",
            local_bytes(LocalArrayKernel::Registers),
            local_bytes(LocalArrayKernel::DynamicIndex),
            local_bytes(LocalArrayKernel::Spilled)
        ));
        assert_eq!(local_bytes(LocalArrayKernel::Registers), 0, "{imp:?}");
        assert!(
            local_bytes(LocalArrayKernel::DynamicIndex) >= 256,
            "{imp:?}: the array is in local memory"
        );
        if LAUNCH_BOUND_FOR_SPILLS
            .architectures
            .contains(&dut.info().architecture())
        {
            assert!(
                local_bytes(LocalArrayKernel::Spilled) > 0,
                "{imp:?}: the bound must make it spill"
            );
        } else {
            note_skipped(&format!(
                "spill check: the launch bound is not applied on {}",
                dut.info().sm_name()
            ));
        }
    }
}

#[test]
fn gpu_latency_chains_end_where_the_references_say() {
    let Some(dut) = gpu_or_skip("gpu_latency_chains_end_where_the_references_say") else {
        return;
    };
    let successors = reference::chase_successors(1000, 42);
    let ring = PointerRing::upload(dut.gpu(), &successors, 128).unwrap();
    let slot_ring = SlotRing::upload(dut.gpu(), &successors).unwrap();
    let mut out = DeviceBuffer::<u64>::uninit(dut.gpu(), 3).unwrap();
    for imp in implementations(&dut) {
        let (warmup, count) = (1000u32, 5000u32);
        let end = reference::follow_successors(&successors, 3, (warmup + count) as u64);
        pointer_chase(&dut, imp, &ring, 3, (warmup, count), &mut out).unwrap();
        let got = out.to_host().unwrap();
        assert_eq!(got[0], ring.slot_address(end as u64).unwrap(), "{imp:?} pointer_chase");
        assert!(
            got[1] >= count as u64 && got[2] > 0,
            "{imp:?}: {} cycles, {} ns",
            got[1],
            got[2]
        );
        let global = got[1] as f64 / count as f64;

        shared_pointer_chase(&dut, imp, &slot_ring, 3, (warmup, count), 256, &mut out).unwrap();
        let got = out.to_host().unwrap();
        assert_eq!(got[0], end as u64, "{imp:?} shared_pointer_chase");
        assert!(got[1] >= count as u64, "{imp:?}: {} cycles", got[1]);
        let shared = got[1] as f64 / count as f64;

        let (x, m, a, trips) = (1.0f32, 0.999_9f32, 0.001f32, 100u32);
        fma_latency(&dut, imp, (x, m, a), trips, &mut out).unwrap();
        let got = out.to_host().unwrap();
        let expected = reference::fma_latency(x, m, a, (trips * FMA_LATENCY_UNROLL) as u64);
        assert_eq!(got[0], expected.to_bits() as u64, "{imp:?} fma_latency");
        assert!(
            got[1] >= (trips * FMA_LATENCY_UNROLL) as u64,
            "{imp:?}: {} cycles",
            got[1]
        );
        let fma = got[1] as f64 / (trips * FMA_LATENCY_UNROLL) as f64;
        note_figure(&format!(
            "{imp:?} dependent latency, SM cycles: global load (125 KiB ring, warm) {global:.1}, shared load {shared:.1}, FMA {fma:.2}"
        ));
    }
}

/// The latency family's runners: the three chains timed with every launch's
/// output kept (each pointer chase continuing where the last ended; every end
/// where the reference says), and the link runner's rings in the GPU's own
/// memory and in mapped host memory; refused: a chase of no ring or of the
/// other kind of ring, a slot outside the ring, bad links or slots, a peer's
/// ring without peer access.
#[test]
fn gpu_latency_runners_time_the_chains_and_refuse_what_is_not_loaded() {
    use ptxsuite::launchers::{RingMemory, latency_runners, link_chase_runners};
    use ptxsuite::run_settings::RunSettings;
    let Some(dut) = gpu_or_skip("gpu_latency_runners_time_the_chains_and_refuse_what_is_not_loaded") else {
        return;
    };
    let settings = RunSettings {
        samples: 2,
        reps: 3,
        ..RunSettings::default()
    };
    let successors = reference::chase_successors(1000, 7);
    let follow = |from: u32, steps: u32| reference::follow_successors(&successors, from, steps as u64);
    let (mut runners, _) = latency_runners(&dut).unwrap();
    let runner = runners[0].as_mut();
    assert!(runner.free_memory().unwrap() > 0);
    let imp = Implementation::Rust;
    assert!(
        runner.time_pointer_chase(imp, &mut || 0, (0, 8), &settings).is_err(),
        "no ring"
    );
    assert!(runner.prime(imp, 0, 8).is_err(), "no ring");
    runner.load_pointer_ring(&successors, 128).unwrap();
    assert!(
        runner.time_shared_chase(imp, 0, (0, 8), &settings).is_err(),
        "not a slot ring"
    );
    assert!(runner.slot_address(1000).is_err(), "past the ring");
    assert!(
        runner.load_pointer_ring(&[1, 2], 128).is_err(),
        "a link outside the ring"
    );
    runner.load_pointer_ring(&successors, 128).unwrap();
    runner.prime(imp, 0, 1000).unwrap();
    runner.flush_l2().unwrap();
    let (mut slot, mut ends) = (follow(0, 1001), Vec::new());
    let timed = {
        let mut start = || {
            let start = slot;
            slot = follow(start, 110);
            ends.push(slot);
            start as u64
        };
        runner
            .time_pointer_chase(imp, &mut start, (10, 100), &settings)
            .unwrap()
    };
    assert!(
        timed.written.len() >= 3 && timed.written.len() == ends.len(),
        "{}",
        ends.len()
    );
    assert_eq!(timed.times_ms.len(), 2);
    for (written, &end) in timed.written.iter().zip(&ends) {
        assert_eq!(written[0], runner.slot_address(end as u64).unwrap(), "pointer_chase");
        assert!(written[1] >= 100 && written[2] > 0, "{written:?}");
    }
    runner.load_slot_ring(&successors).unwrap();
    assert!(runner.slot_address(0).is_err(), "a slot ring has no addresses");
    let timed = runner.time_shared_chase(imp, 3, (1000, 500), &settings).unwrap();
    assert!(
        timed.written.iter().all(|w| w[0] == follow(3, 1500) as u64),
        "shared_pointer_chase"
    );
    let (x, m, a, trips) = (1.0f32, 0.999_9f32, 0.001f32, 10u32);
    let bits = reference::fma_latency(x, m, a, (trips * FMA_LATENCY_UNROLL) as u64).to_bits() as u64;
    let timed = runner.time_fma_chain(imp, (x, m, a), trips, &settings).unwrap();
    assert!(timed.written.iter().all(|w| w[0] == bits), "fma_latency");

    let (links, _) = link_chase_runners(&dut);
    let link = links[0].as_ref();
    for memory in [RingMemory::Own, RingMemory::MappedHost] {
        let mut ring = link.place_ring(&dut, memory, &successors, 128).unwrap();
        assert_eq!(ring.slots(), 1000);
        let words = ring.chase(imp, 3, (0, 100)).unwrap();
        assert_eq!(words[0], ring.slot_address(follow(3, 100)), "a link chase");
        let refused = ring.chase(imp, 1000, (0, 1));
        assert!(
            matches!(refused, Err(Error::InvalidLaunch { .. })),
            "{:?}",
            refused.err()
        );
    }
    assert!(
        link.place_ring(&dut, RingMemory::Own, &successors, 12).is_err(),
        "12-byte slots"
    );
    assert!(
        link.place_ring(&dut, RingMemory::Own, &[0, 7], 128).is_err(),
        "a link outside the ring"
    );
    let peer = link.place_ring(&dut, RingMemory::Peer(&dut), &successors, 128);
    assert!(peer.is_err(), "no peer access was enabled");
}

#[test]
fn gpu_occupancy_kernels_match_reference_at_any_block_size() {
    let Some(dut) = gpu_or_skip("gpu_occupancy_kernels_match_reference_at_any_block_size") else {
        return;
    };
    let n = 100_003usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let inp = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), n).unwrap();
    let successors = reference::chase_successors(5000, 7);
    let ring = SlotRing::upload(dut.gpu(), &successors).unwrap();
    let mut ends = DeviceBuffer::<u32>::uninit(dut.gpu(), 5000).unwrap();
    for imp in implementations(&dut) {
        for block in [32u32, 48, 96, 200, 256, 1000, 1024] {
            for shared in [0u32, 40 << 10] {
                out.fill(-1.0).unwrap();
                occupancy_copy(&dut, imp, &mut out, &inp, (n - 3) as u64, (block, shared)).unwrap();
                let got = out.to_host().unwrap();
                assert!(
                    got[..n - 3] == input[..n - 3],
                    "{imp:?} copy, block {block}, {shared} B shared"
                );
                assert_eq!(&got[n - 3..], &[-1.0; 3], "{imp:?}: the tail guard");

                occupancy_chase(&dut, imp, &ring, (4999, 20), (block, shared), &mut ends).unwrap();
                let got = ends.to_host().unwrap();
                for (t, &end) in got.iter().take(4999).enumerate() {
                    let expected = reference::follow_successors(&successors, t as u32, 20);
                    assert_eq!(end, expected, "{imp:?} chase, block {block}, thread {t}");
                }
            }
        }
    }
    let kernel = dut.kernel(Implementation::Rust, "occupancy_chase").unwrap();
    let max_shared = dut.info().max_shared_memory_per_multiprocessor as u32 - 1024;
    let points = shared_bytes_for_resident_blocks(max_shared, 1024, |bytes| {
        kernel.max_active_blocks_per_sm(256, bytes as usize)
    })
    .unwrap();
    assert!(points.len() >= 2, "{points:?}");
    assert_eq!(
        points.last().map(|p| p.0),
        Some(1),
        "the sweep reaches one block per SM: {points:?}"
    );
}

#[test]
fn gpu_occupancy_runner_times_and_reads_back_both_kernels() {
    let Some(dut) = gpu_or_skip("gpu_occupancy_runner_times_and_reads_back_both_kernels") else {
        return;
    };
    let (mut runners, waived) = occupancy_runners(&dut).unwrap();
    assert!(waived.iter().all(|(what, _)| what == "CUDA C twins"), "{waived:?}");
    assert_eq!(
        runners.len(),
        1,
        "the PTX implementations' runner alone: OpenCL reports no occupancy"
    );
    let runner = runners[0].as_mut();
    assert_eq!(runner.implementations(), implementations(&dut));
    assert!(
        runner.clear_output(OccupancyKernel::Copy).is_err(),
        "cleared before prepare"
    );
    let input: Vec<f32> = (0..100_003).map(|i| i as f32 * 0.5).collect();
    let successors = reference::chase_successors(5000, 11);
    runner.prepare(&input, &successors, (4999, 20)).unwrap();
    let settings = ptxsuite::run_settings::RunSettings {
        samples: 3,
        reps: 2,
        ..Default::default()
    };
    for imp in implementations(&dut) {
        for (block, shared) in [(48u32, 0u32), (256, 40 << 10)] {
            let what = format!("{imp:?}, block {block}, {shared} B shared");
            let resident = runner
                .resident_blocks(imp, OccupancyKernel::Copy, (block, shared))
                .unwrap();
            let kernel = dut.kernel(imp, "occupancy_copy").unwrap();
            assert_eq!(
                resident,
                kernel.max_active_blocks_per_sm(block, shared as usize).unwrap(),
                "{what}"
            );
            for kernel in OccupancyKernel::ALL {
                runner.clear_output(kernel).unwrap();
                let times = runner.time(imp, kernel, (block, shared), &settings).unwrap();
                assert_eq!(times.len(), 3, "{what}");
                assert!(times.iter().all(|ms| ms.is_finite() && *ms > 0.0), "{what}: {times:?}");
            }
            assert!(runner.read_copy().unwrap() == input, "{what}: the copy");
            let ends = runner.read_ends().unwrap();
            for (t, &end) in ends.iter().enumerate() {
                assert_eq!(
                    end,
                    reference::follow_successors(&successors, t as u32, 20),
                    "{what}: thread {t}"
                );
            }
        }
    }
}

#[test]
fn gpu_allocations_hold_a_word_and_the_pool_keeps_what_is_freed() {
    use ptxsuite::gpu::{DeviceAllocation, MemoryPool};
    let Some(dut) = gpu_or_skip("gpu_allocations_hold_a_word_and_the_pool_keeps_what_is_freed") else {
        return;
    };
    let gpu = dut.gpu();
    DeviceAllocation::bind(gpu).unwrap();
    for bytes in [4usize, 4 << 10, 1 << 20] {
        let allocation = DeviceAllocation::new(gpu, bytes).unwrap();
        assert_eq!(allocation.bytes(), bytes);
        // §3.2.1.2's promise, which the allocation experiment grades: at least 256-byte alignment.
        assert_eq!(
            allocation.address() % 256,
            0,
            "{bytes} B at {:#x}",
            allocation.address()
        );
        assert_eq!(
            allocation.round_trip_last_word(0xC0FF_EE00 ^ bytes as u32).unwrap(),
            0xC0FF_EE00 ^ bytes as u32
        );
    }
    for bad in [0usize, 2, 6] {
        assert!(
            matches!(DeviceAllocation::new(gpu, bad), Err(Error::InvalidInput(_))),
            "{bad} bytes"
        );
    }
    if !MemoryPool::supported(gpu).unwrap() {
        note_skipped("the pooled half: this device has no memory pools");
        return;
    }
    let pool = MemoryPool::default_for(gpu, u64::MAX).unwrap();
    {
        let pooled = pool.allocate(1 << 20).unwrap();
        assert_eq!(pooled.bytes(), 1 << 20);
        assert_eq!(pooled.round_trip_last_word(0x5EED_0001).unwrap(), 0x5EED_0001);
        assert!(matches!(pool.allocate(6), Err(Error::InvalidInput(_))));
    }
    gpu.synchronize().unwrap();
    // Freed, synchronized, and still held: the raised release threshold keeps it pooled.
    assert!(pool.reserved_bytes().unwrap() >= 1 << 20);
}

/// The allocation family's runner: every case's proof reads back what it
/// wrote (the launch: its copied 1), every case times, the odd sizes come
/// back aligned, and the pool keeps what the pooled case freed.
#[test]
fn gpu_allocation_runner_proves_and_times_every_case() {
    use ptxsuite::launchers::{AllocationCase, CaseReadBack, allocation_runners, stream_ordered_pools};
    let Some(dut) = gpu_or_skip("gpu_allocation_runner_proves_and_times_every_case") else {
        return;
    };
    if !stream_ordered_pools(&dut).unwrap() {
        note_skipped("the allocation runner: this device has no memory pools");
        return;
    }
    let (mut runners, waived) = allocation_runners(&dut, 1 << 20).unwrap();
    assert!(waived.is_empty(), "{waived:?}");
    let runner = runners[0].as_mut();
    let settings = ptxsuite::run_settings::RunSettings {
        samples: 2,
        reps: 2,
        ..Default::default()
    };
    let (bytes, value) = (64 << 10, 0x5EED_0002);
    for case in AllocationCase::ALL {
        let expected = match case {
            AllocationCase::LaunchAndWait => CaseReadBack::CopiedElement(1.0),
            _ => CaseReadBack::LastWord(value),
        };
        assert_eq!(runner.prove(case, bytes, value).unwrap(), expected, "{case:?}");
        let times = runner.time(case, bytes, value, &settings).unwrap();
        assert_eq!(times.len(), 2, "{case:?}");
        assert!(times.iter().all(|ms| *ms > 0.0), "{case:?}: {times:?}");
    }
    let odd = runner.odd_sizes(&[(1028, 7), ((1 << 20) + 4, 9)]).unwrap();
    assert_eq!(odd.iter().map(|(_, got)| *got).collect::<Vec<_>>(), [7, 9]);
    assert!(odd.iter().all(|(address, _)| address % 256 == 0), "{odd:x?}");
    assert!(runner.pool_reserved_bytes().unwrap() >= bytes);
}
