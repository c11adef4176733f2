//! Self-test checks of the memory-claims kernel families (shared-memory
//! banks, constant memory, local memory, latency chains, occupancy): each
//! kernel small, by every PTX implementation, against the CPU references.

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::latency::{FMA_LATENCY_UNROLL, LATENCY_OUT_WORDS};

use super::SelfTest;
use super::checks::{first, verified};
use crate::error::Result;
use crate::experiments::expected_read_checksum;
use crate::gpu::DeviceBuffer;
use crate::launchers::{
    BankKernel, ChaseTable, ConstantSpace, LocalArrayKernel, OCCUPANCY_BLOCK_THREADS, PointerRing, SlotRing,
    bank_kernel, constant_chase, fma_latency, local_array, occupancy_chase, occupancy_copy, pointer_chase,
    shared_pointer_chase,
};
use crate::reference;
use crate::testbed::Testbed;

/// The checks of the memory-claims families (banks, constant and local memory, latency, occupancy),
/// in the order `ptxsuite selftest` runs them (gathered with the other families' by
/// [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[
    SelfTest {
        name: "shared-memory bank kernels (4-, 8-, 16-byte, tile column)",
        run: bank_kernels,
    },
    SelfTest {
        name: "constant-memory chases (ld.const, ld.global.nc, shared)",
        run: constant_chases,
    },
    SelfTest {
        name: "local-memory arrays (registers, dynamic index, spilled)",
        run: local_arrays,
    },
    SelfTest {
        name: "latency chains (pointer chase, shared chase, FMA)",
        run: latency_chains,
    },
    SelfTest {
        name: "occupancy kernels (guarded copy, per-thread chase)",
        run: occupancy_kernels,
    },
];

/// The first element of `got` that differs from `expected(index)`, described.
fn first_difference<T: PartialEq + std::fmt::Debug>(got: &[T], expected: impl Fn(usize) -> T) -> Option<String> {
    got.iter().enumerate().find_map(|(i, g)| {
        let e = expected(i);
        (*g != e).then(|| format!("element {i} is {g:?}, the reference {e:?}"))
    })
}

pub(super) fn bank_kernels(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let (block_threads, blocks, rounds) = (64u32, 2u32, 3u32);
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), BLOCK_SPAN_WORDS * blocks as usize)?;
    let mut checksums = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize)?;
    for implementation in dut.ptx_implementations().0 {
        for kernel in BankKernel::ALL.into_iter().chain(BankKernel::GUIDE_CASES) {
            let words = kernel.access().bytes() / 4;
            let strides = [0, 1, 2, 32, kernel.max_stride()];
            for stride in strides.into_iter().filter(|&s| s <= kernel.max_stride()) {
                checksums.fill(0)?;
                bank_kernel(
                    dut,
                    implementation,
                    kernel,
                    stride,
                    rounds,
                    (block_threads, blocks),
                    &mut cycles,
                    &mut checksums,
                )?;
                let got = checksums.to_host()?;
                let mismatch = match kernel {
                    BankKernel::StridedWrite(_) => {
                        // Each thread's share of its block's table: the shares add up to the table's sum.
                        let sum = reference::bank_write_checksum(words, stride as u64, rounds as u64);
                        let sums: Vec<u32> = got
                            .chunks_exact(block_threads as usize)
                            .map(|shares| shares.iter().fold(0u32, |s, &x| s.wrapping_add(x)))
                            .collect();
                        first_difference(&sums, |_| sum)
                    }
                    _ => first_difference(&got, |t| {
                        expected_read_checksum(kernel, stride, rounds, (t % 32) as u64)
                    }),
                };
                verified(
                    format!("{} · {} at stride {stride}", kernel.kernel(), implementation.label()),
                    mismatch,
                )?;
            }
        }
    }
    Ok(())
}

pub(super) fn constant_chases(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let links = reference::constant_chase_links(128);
    let table = ChaseTable::upload(dut.gpu(), &links)?;
    let (block_threads, blocks, steps) = (64u32, 2u32, 40u32);
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), BLOCK_SPAN_WORDS * blocks as usize)?;
    let mut sums = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize)?;
    for implementation in dut.ptx_implementations().0 {
        for space in ConstantSpace::ALL {
            for distinct in [1, 3, 32] {
                sums.fill(0)?;
                constant_chase(
                    dut,
                    implementation,
                    space,
                    &table,
                    distinct,
                    steps,
                    (block_threads, blocks),
                    &mut cycles,
                    &mut sums,
                )?;
                verified(
                    format!("{} · {}, {distinct} distinct", space.kernel(), implementation.label()),
                    first_difference(&sums.to_host()?, |t| {
                        reference::constant_chase_sum(&links, distinct, (t % 32) as u32, steps)
                    }),
                )?;
            }
        }
    }
    Ok(())
}

pub(super) fn local_arrays(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let (block_threads, blocks, rounds) = (96u32, 2u32, 4u32);
    let mut out = DeviceBuffer::<u32>::uninit(dut.gpu(), (block_threads * blocks) as usize)?;
    for implementation in dut.ptx_implementations().0 {
        for kernel in LocalArrayKernel::ALL {
            let shift = if kernel == LocalArrayKernel::DynamicIndex { 7 } else { 0 };
            out.fill(0)?;
            local_array(
                dut,
                implementation,
                kernel,
                (shift, rounds),
                (block_threads, blocks),
                &mut out,
            )?;
            verified(
                format!("{} · {}", kernel.kernel(), implementation.label()),
                first_difference(&out.to_host()?, |t| reference::local_array(t as u32, shift, rounds)),
            )?;
        }
    }
    Ok(())
}

pub(super) fn latency_chains(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let successors = reference::chase_successors(300, 11);
    let ring = PointerRing::upload(dut.gpu(), &successors, 128)?;
    let slots = SlotRing::upload(dut.gpu(), &successors)?;
    let mut out = DeviceBuffer::<u64>::uninit(dut.gpu(), LATENCY_OUT_WORDS)?;
    let (warmup, count) = (300u32, 500u32);
    let end = reference::follow_successors(&successors, 5, (warmup + count) as u64);
    let (x, m, a, trips) = (1.0f32, 0.999_9f32, 0.001f32, 4u32);
    let fma_bits = reference::fma_latency(x, m, a, (trips * FMA_LATENCY_UNROLL) as u64).to_bits() as u64;
    for implementation in dut.ptx_implementations().0 {
        let label = implementation.label();
        pointer_chase(dut, implementation, &ring, 5, (warmup, count), &mut out)?;
        verified(
            format!("pointer_chase · {label}"),
            first_difference(&out.to_host()?[..1], |_| ring.slot_address(end as u64).unwrap_or(0)),
        )?;
        shared_pointer_chase(dut, implementation, &slots, 5, (warmup, count), 64, &mut out)?;
        verified(
            format!("shared_pointer_chase · {label}"),
            first_difference(&out.to_host()?[..1], |_| end as u64),
        )?;
        fma_latency(dut, implementation, (x, m, a), trips, &mut out)?;
        verified(
            format!("fma_latency · {label}"),
            first_difference(&out.to_host()?[..1], |_| fma_bits),
        )?;
    }
    Ok(())
}

pub(super) fn occupancy_kernels(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let n = 10_007usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let inp = DeviceBuffer::from_host(dut.gpu(), &input)?;
    let mut out = DeviceBuffer::<f32>::uninit(dut.gpu(), n)?;
    let successors = reference::chase_successors(2000, 3);
    let ring = SlotRing::upload(dut.gpu(), &successors)?;
    let mut ends = DeviceBuffer::<u32>::uninit(dut.gpu(), 2000)?;
    let (threads, steps) = (1999u32, 9u32);
    for implementation in dut.ptx_implementations().0 {
        for (block, shared) in [(48, 0), (200, 0), (OCCUPANCY_BLOCK_THREADS, 40 << 10), (1000, 0)] {
            out.fill(-1.0)?;
            occupancy_copy(dut, implementation, &mut out, &inp, (n - 7) as u64, (block, shared))?;
            let what = format!("block {block}, {shared} B of shared memory");
            verified(
                format!("occupancy_copy · {}, {what}", implementation.label()),
                first_difference(&out.to_host()?, |i| if i < n - 7 { input[i] } else { -1.0 }),
            )?;
            ends.fill(u32::MAX)?;
            occupancy_chase(dut, implementation, &ring, (threads, steps), (block, shared), &mut ends)?;
            verified(
                format!("occupancy_chase · {}, {what}", implementation.label()),
                first_difference(&ends.to_host()?, |t| {
                    if t < threads as usize {
                        reference::follow_successors(&successors, t as u32, steps as u64)
                    } else {
                        u32::MAX
                    }
                }),
            )?;
        }
    }
    Ok(())
}
