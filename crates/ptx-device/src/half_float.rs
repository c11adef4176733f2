//! IEEE 754 binary16 ("half") storage: widening its bits to `f32`.
//!
//! Kernels that *store* matrices as half floats (to halve the bytes moved)
//! but *compute* in `f32` need only this one conversion, and it is exact:
//! every binary16 value is representable in binary32.

/// The `f32` with the value of the binary16 number whose bits are `bits`
/// (CUDA C's `__half2float(__ushort_as_half(bits))`).
///
/// Exact for every input: zeros, subnormals, normals and infinities keep
/// their value and sign; a NaN stays a NaN (its payload may be quieted).
/// On the GPU one `cvt.f32.f16`; in the emulator a few integer operations.
#[inline(always)]
pub fn f16_bits_to_f32(bits: u16) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: f32;
        // SAFETY: a register-to-register conversion; it touches no memory.
        unsafe {
            core::arch::asm!(
                "cvt.f32.f16 {out}, {bits};",
                out = out(reg32) out,
                bits = in(reg16) bits,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        f16_bits_to_f32_soft(bits)
    }
}

/// The software conversion behind [`f16_bits_to_f32`] on the host.
#[cfg(not(target_arch = "nvptx64"))]
fn f16_bits_to_f32_soft(bits: u16) -> f32 {
    let sign = u32::from(bits & 0x8000) << 16;
    let exponent = u32::from(bits >> 10) & 0x1f;
    let mantissa = u32::from(bits & 0x03ff);
    let magnitude = match exponent {
        // Zero or subnormal: mantissa · 2⁻²⁴, exact in f32 (10 significant bits, a power-of-two scale).
        0 => (mantissa as f32 * (1.0 / 16_777_216.0)).to_bits(),
        // Infinity or NaN: all-ones exponent, the mantissa moved to the top of f32's.
        0x1f => 0x7f80_0000 | (mantissa << 13),
        // Normal: rebias the exponent (15 → 127) and widen the mantissa.
        _ => ((exponent + 127 - 15) << 23) | (mantissa << 13),
    };
    f32::from_bits(sign | magnitude)
}
