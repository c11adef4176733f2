//! Rings for the pointer chases: a random cyclic permutation of slots, and
//! where a chase through it ends.

/// The successor of each of `slots` slots in one random cycle through all of
/// them (Sattolo's shuffle, seeded, so a run can be repeated): following
/// `successors` from any slot visits every slot once before returning.
/// Slot counts up to `u32::MAX`.
pub fn chase_successors(slots: usize, seed: u64) -> Vec<u32> {
    assert!(
        slots > 0 && slots <= u32::MAX as usize,
        "{slots} slots: the ring needs 1 to 2^32 - 1"
    );
    let mut order: Vec<u32> = (0..slots as u32).collect();
    let mut state = seed;
    for i in (1..slots).rev() {
        // Sattolo: swap with j < i (never i itself), which yields a single cycle.
        let j = (split_mix_64(&mut state) % i as u64) as usize;
        order.swap(i, j);
    }
    let mut successors = vec![0u32; slots];
    for (i, &slot) in order.iter().enumerate() {
        successors[slot as usize] = order[(i + 1) % slots];
    }
    successors
}

/// SplitMix64: a small, well-mixed 64-bit generator (Steele, Lea and Flood 2014).
fn split_mix_64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The slot a chase through `successors` reaches after `steps` steps from `start`.
pub fn follow_successors(successors: &[u32], start: u32, steps: u64) -> u32 {
    let mut slot = start;
    for _ in 0..steps {
        slot = successors[slot as usize];
    }
    slot
}
