//! 24-bit integer multiplication, PTX `mul24.lo.s32` (CUDA C `__mul24`,
//! OpenCL `mul24`): the OpenCL Programming Guide §3.1.1.1 recommends it on
//! compute capability 1.x (8 operations per clock per SM against 2 for a
//! 32-bit multiply) and predicts it will be slower than a 32-bit multiply on
//! later architectures, which have no 24-bit multiplier: ptxas builds it from
//! 32-bit instructions.

/// The low 32 bits of the product of `a`'s and `b`'s low 24 bits, each read
/// as a signed 24-bit number (PTX `mul24.lo.s32`). The emulator computes the
/// same value exactly.
#[inline(always)]
pub fn mul24_lo(a: i32, b: i32) -> i32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: i32;
        // SAFETY: a register-to-register arithmetic instruction; it touches no memory.
        unsafe {
            core::arch::asm!(
                "mul24.lo.s32 {out}, {a}, {b};",
                out = out(reg32) out,
                a = in(reg32) a,
                b = in(reg32) b,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let low24 = |x: i32| (x << 8) >> 8;
        low24(a).wrapping_mul(low24(b))
    }
}

#[cfg(test)]
mod tests {
    use super::mul24_lo;

    #[test]
    fn only_the_low_24_bits_multiply_as_signed_numbers() {
        assert_eq!(mul24_lo(3, 5), 15);
        assert_eq!(mul24_lo(0x0100_0003, 5), 15, "bit 24 and up are ignored");
        assert_eq!(mul24_lo(0x00ff_ffff, 7), -7, "0xffffff is -1 in 24 bits");
        assert_eq!(
            mul24_lo(0x007f_ffff, 0x007f_ffff),
            (0x7f_ffffi64 * 0x7f_ffff) as i32,
            "low 32 bits"
        );
    }
}
