//! The bank-conflict kernels in the CPU emulator: every read kernel's
//! per-thread checksums and every write kernel's per-block table sums (the
//! sum of its threads' shares)
//! against the CPU references, for strides from the broadcast to the padded
//! tile's 33, and a stride past the table reported as a fault; the OpenCL
//! guide's other cases (1- and 2-byte elements, structs read member by
//! member, split 64-bit halves, a permutation) against their references.

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::device::F32x4;
use kernels_gpu::shared_memory_banks::{
    NARROW_TABLE_BYTES, bank_read_b8, bank_read_b16, bank_read_b32, bank_read_b64, bank_read_b128, bank_read_permuted,
    bank_read_split_b64, bank_read_struct2, bank_read_struct3, bank_shared_bytes, bank_tile_column_read,
    bank_write_b32, bank_write_b64, bank_write_b128, permuted_lane_word,
};
use ptxsuite::device::{Dim3, GlobalMutPtr};
use ptxsuite::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};
use ptxsuite::reference;

type BankKernelFn = unsafe fn(u32, u32, GlobalMutPtr<u64>, GlobalMutPtr<u32>);

const BLOCKS: u32 = 2;
const BLOCK_THREADS: u32 = 64;

/// Runs `kernel` on 2 blocks of 64 threads; returns (span words, four per block, and checksums).
fn run(
    kernel: BankKernelFn,
    element_bytes: usize,
    stride: u32,
    rounds: u32,
    checksums: usize,
) -> Result<(Vec<u64>, Vec<u32>), EmulatorError> {
    run_with(kernel, bank_shared_bytes(element_bytes), stride, rounds, checksums)
}

/// [`run`] with `shared_bytes` of dynamic shared memory.
fn run_with(
    kernel: BankKernelFn,
    shared_bytes: usize,
    stride: u32,
    rounds: u32,
    checksums: usize,
) -> Result<(Vec<u64>, Vec<u32>), EmulatorError> {
    let mut cycles = vec![0u64; BLOCK_SPAN_WORDS * BLOCKS as usize];
    let mut sums = vec![0u32; checksums];
    {
        let mut emu = Emulator::new();
        let cycles_ptr = emu.global_mut(&mut cycles);
        let sums_ptr = emu.global_mut(&mut sums);
        let config = LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK_THREADS), shared_bytes);
        // SAFETY: the emulator checks every access; strides past the table become faults.
        emu.launch(config, || unsafe { kernel(stride, rounds, cycles_ptr, sums_ptr) })?;
    }
    Ok((cycles, sums))
}

const READS: [(BankKernelFn, usize); 3] = [(bank_read_b32, 4), (bank_read_b64, 8), (bank_read_b128, 16)];
const WRITES: [(BankKernelFn, usize); 3] = [(bank_write_b32, 4), (bank_write_b64, 8), (bank_write_b128, 16)];
const STRIDES: [u32; 8] = [0, 1, 2, 3, 8, 17, 32, 33];

#[test]
fn strided_reads_sum_the_words_each_lane_reads() {
    let threads = (BLOCKS * BLOCK_THREADS) as usize;
    for (kernel, bytes) in READS {
        for stride in STRIDES {
            let (cycles, sums) = run(kernel, bytes, stride, 3, threads).unwrap();
            for (t, &sum) in sums.iter().enumerate() {
                let lane = (t % 32) as u64;
                let expected = reference::bank_read_checksum(bytes as u64 / 4, stride as u64, 32, 3, lane);
                assert_eq!(sum, expected, "{bytes}-byte reads, stride {stride}, thread {t}");
            }
            for span in cycles.as_chunks::<BLOCK_SPAN_WORDS>().0 {
                assert!(span[1] > span[0], "a span ends after it starts: {cycles:?}");
            }
        }
    }
}

#[test]
fn tile_column_read_sums_row_lane_of_the_tile() {
    let threads = (BLOCKS * BLOCK_THREADS) as usize;
    for pitch in [32, 33, 64] {
        let (_, sums) = run(bank_tile_column_read, 4, pitch, 2, threads).unwrap();
        for (t, &sum) in sums.iter().enumerate() {
            let expected = reference::bank_read_checksum(1, pitch as u64, 1, 2, (t % 32) as u64);
            assert_eq!(sum, expected, "pitch {pitch}, thread {t}");
        }
    }
}

#[test]
fn strided_writes_leave_the_table_the_reference_predicts() {
    for (kernel, bytes) in WRITES {
        for stride in STRIDES {
            for rounds in [0, 1, 3] {
                let (_, shares) = run(kernel, bytes, stride, rounds, (BLOCKS * BLOCK_THREADS) as usize).unwrap();
                let expected = reference::bank_write_checksum(bytes as u64 / 4, stride as u64, rounds as u64);
                let sums: Vec<u32> = shares
                    .as_chunks::<{ BLOCK_THREADS as usize }>()
                    .0
                    .iter()
                    .map(|block| block.iter().fold(0u32, |sum, &s| sum.wrapping_add(s)))
                    .collect();
                assert_eq!(
                    sums,
                    vec![expected; BLOCKS as usize],
                    "{bytes}-byte writes, stride {stride}, {rounds} rounds"
                );
            }
        }
    }
}

#[test]
fn the_checksums_tell_strides_apart() {
    // The references would accept a kernel that ignored its stride if every stride summed alike.
    let at = |stride| reference::bank_read_checksum(1, stride, 32, 1, 5);
    assert_ne!(at(1), at(2));
    let written = |stride| reference::bank_write_checksum(4, stride, 2);
    assert_ne!(written(1), written(2));
    assert_ne!(written(0), written(32));
}

#[test]
fn a_stride_past_the_table_is_a_shared_memory_fault() {
    // Lane 31 at stride 40 reads element 31 * 40 + 32 * 31 = 2232, past the 2049 allocated.
    let err = run(bank_read_b32, 4, 40, 1, (BLOCKS * BLOCK_THREADS) as usize).unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { write: false, .. })),
        "{err}"
    );
    let err = run(bank_write_b128, 16, 40, 1, (BLOCKS * BLOCK_THREADS) as usize).unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { write: true, .. })),
        "{err}"
    );
}

#[test]
fn sixteen_byte_elements_are_four_words() {
    // The 16-byte kernels move F32x4s holding word bit patterns: check the layout they rely on.
    assert_eq!(size_of::<F32x4>(), 16);
    assert_eq!(bank_shared_bytes(16), 2049 * 16);
}

/// The per-thread checksums of a guide-case kernel, each against `expected(lane)`.
fn check_case(name: &str, kernel: BankKernelFn, shared_bytes: usize, stride: u32, expected: impl Fn(u64) -> u32) {
    let threads = (BLOCKS * BLOCK_THREADS) as usize;
    let (cycles, sums) = run_with(kernel, shared_bytes, stride, 3, threads).unwrap();
    for (t, &sum) in sums.iter().enumerate() {
        assert_eq!(sum, expected((t % 32) as u64), "{name} at {stride}, thread {t}");
    }
    for span in cycles.as_chunks::<BLOCK_SPAN_WORDS>().0 {
        assert!(span[1] > span[0], "{name}: a span ends after it starts");
    }
}

#[test]
fn narrow_reads_sum_the_bytes_and_halves_each_lane_reads() {
    let shared = NARROW_TABLE_BYTES as usize;
    for stride in [0, 1, 2, 4, 8] {
        check_case("bank_read_b8", bank_read_b8, shared, stride, |lane| {
            reference::narrow_read_checksum(1, stride as u64, 3, lane)
        });
        check_case("bank_read_b16", bank_read_b16, shared, stride, |lane| {
            reference::narrow_read_checksum(2, stride as u64, 3, lane)
        });
    }
    // Byte element 300 holds 44 (300 mod 256): lane 1 at stride 4 reads elements 4 + 128 j.
    assert_ne!(
        reference::narrow_read_checksum(1, 4, 1, 1),
        reference::narrow_read_checksum(2, 4, 1, 1)
    );
}

#[test]
fn struct_reads_sum_every_member_of_each_struct() {
    for stride in [0, 1] {
        check_case(
            "bank_read_struct2",
            bank_read_struct2,
            bank_shared_bytes(4),
            stride,
            |lane| reference::struct_read_checksum(2, stride as u64, 3, lane),
        );
        check_case(
            "bank_read_struct3",
            bank_read_struct3,
            bank_shared_bytes(4),
            stride,
            |lane| reference::struct_read_checksum(3, stride as u64, 3, lane),
        );
    }
    assert_ne!(
        reference::struct_read_checksum(2, 1, 1, 3),
        reference::struct_read_checksum(3, 1, 1, 3),
        "the member counts sum differently"
    );
}

#[test]
fn split_reads_sum_both_halves_of_each_value() {
    for stride in [0, 1] {
        check_case(
            "bank_read_split_b64",
            bank_read_split_b64,
            bank_shared_bytes(4),
            stride,
            |lane| reference::split_read_checksum(stride as u64, 3, lane),
        );
    }
}

#[test]
fn the_permuted_read_reads_one_word_of_each_row_per_lane() {
    for multiplier in [1, 13, 2] {
        check_case(
            "bank_read_permuted",
            bank_read_permuted,
            bank_shared_bytes(4),
            multiplier,
            |lane| reference::permuted_read_checksum(multiplier as u64, 3, lane),
        );
    }
    // The kernel's permutation is the reference's, and a scrambled permutation at 13.
    let words: Vec<u64> = (0..32).map(|lane| permuted_lane_word(lane as u32, 13) as u64).collect();
    assert_eq!(
        words,
        (0..32)
            .map(|lane| reference::permuted_word(lane, 13))
            .collect::<Vec<_>>()
    );
    let mut sorted = words.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..32).collect::<Vec<u64>>(), "a permutation");
    assert!(
        words.iter().enumerate().filter(|&(l, &w)| l as u64 == w).count() < 4,
        "scrambled: {words:?}"
    );
}

#[test]
fn a_narrow_stride_past_the_table_is_a_fault() {
    // 2-byte reads at stride 64: lane 31 reads element 1984 + 64 * 31 = 3968 (inside); at stride 100, 3100 + 1984 = 5084 (past 4096).
    let err = run_with(
        bank_read_b16,
        NARROW_TABLE_BYTES as usize,
        100,
        1,
        (BLOCKS * BLOCK_THREADS) as usize,
    )
    .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { write: false, .. })),
        "{err}"
    );
}
