//! What the local-memory kernels (`kernels_gpu::local_memory`) must produce.

use kernels_gpu::local_memory::LOCAL_ARRAY_WORDS;

/// The value thread `thread` writes: its array of `LOCAL_ARRAY_WORDS` words
/// starts as `thread * 0x9e3779b9 + i`; each of `rounds` rounds visits the
/// words from index `shift` on, cyclically, folding each into a running value
/// (`value * 31 + word`, from `value = thread`) and writing `value ^ round`
/// back. The registers and spilled kernels use `shift = 0`.
pub fn local_array(thread: u32, shift: u32, rounds: u32) -> u32 {
    let n = LOCAL_ARRAY_WORDS;
    let mut words: Vec<u32> = (0..n as u32)
        .map(|i| thread.wrapping_mul(0x9e37_79b9).wrapping_add(i))
        .collect();
    let mut value = thread;
    for round in 0..rounds {
        for visit in 0..n {
            let index = (shift as usize + visit) % n;
            value = value.wrapping_mul(31).wrapping_add(words[index]);
            words[index] = value ^ round;
        }
    }
    value
}
