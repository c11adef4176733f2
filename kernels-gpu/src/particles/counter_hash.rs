//! Counter-based random numbers: a pure function of (particle, frame,
//! stream), the same on the GPU, in the emulator and in a CPU reference.

/// Independent numbers a particle may draw per frame (streams `0..RANDOM_STREAMS`).
pub const RANDOM_STREAMS: u32 = 4;

/// A 32-bit integer mixer (xorshift-multiply, the "lowbias32" constants of
/// Chris Wellons' hash prospector): every input bit affects every output bit.
#[inline(always)]
pub fn mix32(value: u32) -> u32 {
    let mut x = value;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// A uniform number in `[0, 1)`, a multiple of `2^-24` (so exact in `f32`),
/// for `particle` in `frame` from stream `stream` (`< RANDOM_STREAMS`).
///
/// The frame and stream are mixed first, then combined with the particle
/// index and mixed again: neighbouring particles, frames and streams give
/// unrelated numbers.
#[inline(always)]
pub fn particle_uniform(particle: u32, frame: u32, stream: u32) -> f32 {
    let key = mix32(frame.wrapping_mul(RANDOM_STREAMS).wrapping_add(stream));
    let bits = mix32(particle ^ key);
    (bits >> 8) as f32 * (1.0 / 16_777_216.0)
}
