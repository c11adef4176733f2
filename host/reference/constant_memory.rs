//! The table the constant-memory kernels walk, and what they must produce.

/// The links the constant-memory series uses: `links[w] = (w + 32) % words`.
/// A lane group that starts at word `g < 32` stays at words `≡ g (mod 32)`,
/// so groups never meet: `distinct` groups make every warp request hold
/// exactly `distinct` addresses, each in its own shared-memory bank and all
/// in one 128-byte line per step. `words` must be a positive multiple of 32.
pub fn constant_chase_links(words: usize) -> Vec<u32> {
    assert!(
        words > 0 && words.is_multiple_of(32),
        "{words} words is not a positive multiple of 32"
    );
    (0..words).map(|w| ((w + 32) % words) as u32).collect()
}

/// The sum `constant_chase*` writes for lane `lane` (of any warp): the
/// wrapping sum of the `steps` words it visits from word `lane % distinct`.
pub fn constant_chase_sum(links: &[u32], distinct: u32, lane: u32, steps: u32) -> u32 {
    let mut word = lane % distinct;
    let mut sum = 0u32;
    for _ in 0..steps {
        word = links[word as usize];
        sum = sum.wrapping_add(word);
    }
    sum
}
