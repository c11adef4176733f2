//! What the bank-conflict kernels (`kernels_gpu::shared_memory_banks`) must
//! produce, recomputed with plain loops over the table the kernels fill.

use kernels_gpu::shared_memory_banks::{BANK_TABLE_ELEMENTS, ROUND_ACCESSES};

/// Word `word` of table element `element` after write round `round` (round
/// 0: as filled): element in bits 0–11, round in bits 12–23, word in 24–25.
fn table_word(element: u64, word: u64, round: u64) -> u32 {
    (element | (round & 0xfff) << 12 | word << 24) as u32
}

/// The checksum thread `lane` (of any warp) of `bank_read_*` or
/// `bank_tile_column_read` writes: the wrapping sum of every word of every
/// element it reads, `step` elements apart (32 for the strided reads, 1 for
/// the tile columns), `element_words` words an element.
pub fn bank_read_checksum(element_words: u64, stride: u64, step: u64, rounds: u64, lane: u64) -> u32 {
    let mut sum = 0u32;
    for _ in 0..rounds {
        for access in 0..ROUND_ACCESSES as u64 {
            let element = lane * stride + step * access;
            for word in 0..element_words {
                sum = sum.wrapping_add(table_word(element, word, 0));
            }
        }
    }
    sum
}

/// The checksum block `b` of `bank_write_*` writes: the wrapping sum of the
/// whole table after `rounds` rounds, where the elements the 32 lanes write
/// (`l * stride + 32 j`) hold the last round's value (element field
/// `BANK_TABLE_ELEMENTS`) and the others their fill.
pub fn bank_write_checksum(element_words: u64, stride: u64, rounds: u64) -> u32 {
    let table = BANK_TABLE_ELEMENTS as u64;
    let mut written = vec![false; table as usize];
    if rounds > 0 {
        for lane in 0..32 {
            for access in 0..ROUND_ACCESSES as u64 {
                written[(lane * stride + 32 * access) as usize] = true;
            }
        }
    }
    let mut sum = 0u32;
    for (element, &was_written) in written.iter().enumerate() {
        for word in 0..element_words {
            let value = if was_written {
                table_word(table, word, rounds - 1)
            } else {
                table_word(element as u64, word, 0)
            };
            sum = sum.wrapping_add(value);
        }
    }
    sum
}
