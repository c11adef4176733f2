//! What the bank-conflict kernels (`kernels_gpu::shared_memory_banks`) must
//! produce, recomputed with plain loops over the table the kernels fill.

use kernels_gpu::shared_memory_banks::{BANK_TABLE_ELEMENTS, ROUND_ACCESSES, SPLIT_HALF_WORDS, STRUCT_ROUND_ACCESSES};

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

/// The checksum lane `lane` of `bank_read_b8` (`element_bytes` 1) or
/// `bank_read_b16` (2) writes: element `e` of their table holds `e`
/// truncated to the element; the lane reads `lane * stride + j * 128 /
/// element_bytes`, `j < 32`, every round.
pub fn narrow_read_checksum(element_bytes: u64, stride: u64, rounds: u64, lane: u64) -> u32 {
    let modulus = 1u64 << (8 * element_bytes);
    let mut sum = 0u32;
    for _ in 0..rounds {
        for access in 0..ROUND_ACCESSES as u64 {
            let element = lane * stride + access * 128 / element_bytes;
            sum = sum.wrapping_add((element % modulus) as u32);
        }
    }
    sum
}

/// The checksum lane `lane` of `bank_read_struct2/3` writes: structs of
/// `members` words (each word holding its index), the lane reading struct
/// `lane * stride + 32 j`, `j < STRUCT_ROUND_ACCESSES`, every member, every round.
pub fn struct_read_checksum(members: u64, stride: u64, rounds: u64, lane: u64) -> u32 {
    let mut sum = 0u32;
    for _ in 0..rounds {
        for access in 0..STRUCT_ROUND_ACCESSES as u64 {
            let first_word = (lane * stride + 32 * access) * members;
            for member in 0..members {
                sum = sum.wrapping_add(table_word(first_word + member, 0, 0));
            }
        }
    }
    sum
}

/// The checksum lane `lane` of `bank_read_split_b64` writes: both halves
/// (words `e` and `SPLIT_HALF_WORDS + e`) of values `e = lane * stride + 32 j`, `j < 32`, every round.
pub fn split_read_checksum(stride: u64, rounds: u64, lane: u64) -> u32 {
    let mut sum = 0u32;
    for _ in 0..rounds {
        for access in 0..ROUND_ACCESSES as u64 {
            let value = lane * stride + 32 * access;
            sum = sum.wrapping_add(table_word(value, 0, 0)).wrapping_add(table_word(
                SPLIT_HALF_WORDS as u64 + value,
                0,
                0,
            ));
        }
    }
    sum
}

/// The word of each 32-word row lane `lane` of `bank_read_permuted` reads:
/// `(lane · multiplier) mod 32` XOR 21, recomputed here.
pub fn permuted_word(lane: u64, multiplier: u64) -> u64 {
    ((lane * multiplier) % 32) ^ 21
}

/// The checksum lane `lane` of `bank_read_permuted` writes: words
/// `permuted_word(lane, multiplier) + 32 j`, `j < 32`, every round.
pub fn permuted_read_checksum(multiplier: u64, rounds: u64, lane: u64) -> u32 {
    let mut sum = 0u32;
    for _ in 0..rounds {
        for access in 0..ROUND_ACCESSES as u64 {
            sum = sum.wrapping_add(table_word(permuted_word(lane, multiplier) + 32 * access, 0, 0));
        }
    }
    sum
}
