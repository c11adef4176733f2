use crate::device::F32x4;

/// Word `word` of table element `element` after the write kernels' round
/// `round` (round 0: as the table is filled): `element` in bits 0–11, the
/// round (mod 4096) in bits 12–23, the word's place in bits 24–25.
pub const fn bank_word(element: u32, word: u32, round: u32) -> u32 {
    element | (round & 0xfff) << 12 | word << 24
}

/// The 4-, 8- and 16-byte elements the bank kernels access (one `ld/st.shared`,
/// `.b32`, `.b64` or `.v4.b32`, per access).
pub trait BankElement: Copy {
    /// 4-byte words (and banks) one element covers.
    const WORDS: u32;
    /// All bits clear.
    const ZERO: Self;
    /// The element whose word `i` is `bank_word(element, i, round)`.
    fn pattern(element: u32, round: u32) -> Self;
    /// Word 0 (for a round-0 element: its own index, the read kernels' link).
    fn first_word(self) -> u32;
    /// The wrapping sum of its words (the checksums).
    fn word_sum(self) -> u32;
}

impl BankElement for u32 {
    const WORDS: u32 = 1;
    const ZERO: Self = 0;
    #[inline(always)]
    fn pattern(element: u32, round: u32) -> Self {
        bank_word(element, 0, round)
    }
    #[inline(always)]
    fn first_word(self) -> u32 {
        self
    }
    #[inline(always)]
    fn word_sum(self) -> u32 {
        self
    }
}

impl BankElement for u64 {
    const WORDS: u32 = 2;
    const ZERO: Self = 0;
    #[inline(always)]
    fn pattern(element: u32, round: u32) -> Self {
        bank_word(element, 0, round) as u64 | (bank_word(element, 1, round) as u64) << 32
    }
    #[inline(always)]
    fn first_word(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn word_sum(self) -> u32 {
        (self as u32).wrapping_add((self >> 32) as u32)
    }
}

/// Sixteen bytes as four `f32` lanes holding the words' bits (only moved,
/// never computed with), so a load is one `ld.shared.v4`.
impl BankElement for F32x4 {
    const WORDS: u32 = 4;
    const ZERO: Self = F32x4::from_array([0.0; 4]);
    #[inline(always)]
    fn pattern(element: u32, round: u32) -> Self {
        F32x4::from_array([0, 1, 2, 3].map(|word| f32::from_bits(bank_word(element, word, round))))
    }
    #[inline(always)]
    fn first_word(self) -> u32 {
        self.to_array()[0].to_bits()
    }
    #[inline(always)]
    fn word_sum(self) -> u32 {
        self.to_array()
            .into_iter()
            .fold(0u32, |sum, lane| sum.wrapping_add(lane.to_bits()))
    }
}
