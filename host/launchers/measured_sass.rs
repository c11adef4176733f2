use kernels_gpu::instruction_throughput::ThroughputKernel;

/// The SASS opcodes that carry a throughput kernel's measured operation on
/// Turing through Hopper (an opcode also matches it with more modifiers:
/// `HFMA2` matches `HFMA2.MMA`): what picks the kernel's steady loop out of
/// its SASS. The i32 add is issued as `IADD3` or `IMAD.IADD` (or `VIADD`),
/// the division and modulo sequences around one `IMAD.HI` each, the IEEE
/// reciprocal and division around one `MUFU.RCP`, the FMA-only functions
/// (`sin`, `exp_accurate`) are `FFMA` polynomials; `exp` is one `MUFU.EX2`;
/// the narrow and 24-bit integer kernels build on `IMAD`, and `1/sqrt` on
/// `MUFU.RSQ` and `MUFU.RCP`; the barrier is `BAR.SYNC` (with `.DEFER_BLOCKING` from Volta on).
pub fn measured_sass_opcodes(kernel: ThroughputKernel) -> &'static [&'static str] {
    use ThroughputKernel::*;
    match kernel {
        F32Add => &["FADD"],
        F32Mul | F32LiteralMul => &["FMUL"],
        F32Fma | Sin | ExpAccurate => &["FFMA"],
        F64Fma => &["DFMA"],
        F16x2Fma => &["HFMA2"],
        I32Add => &["IADD3", "IMAD.IADD", "VIADD", "IADD"],
        I32Mul | I32Mad | I16Mad | I8Mad | Mul24 => &["IMAD"],
        U32Div | U32Rem => &["IMAD.HI"],
        U32Shift => &["SHF"],
        U32Mask => &["LOP3"],
        RcpApprox | RcpRn | DivRn | DivApprox => &["MUFU.RCP"],
        RsqrtApprox => &["MUFU.RSQ"],
        RecipSqrtRn => &["MUFU.RSQ", "MUFU.RCP"],
        SinApprox => &["MUFU.SIN"],
        CosApprox => &["MUFU.COS"],
        Ex2Approx | ExpFast | Exp => &["MUFU.EX2"],
        Lg2Approx => &["MUFU.LG2"],
        F64PromotedMul => &["DMUL"],
        BarSync => &["BAR"],
        // The math-library pairs: the SFU forms by their MUFU, the FMA-only functions by FFMA
        // (CUDA's powf, cbrtf and sinf use both; the loop holding the most of either is the steady one).
        Exp2 | Pow2 | Exp10 | Pow10 | PowThird => &["MUFU.EX2"],
        CubeMul => &["FMUL"],
        PowCube => &["MUFU.EX2", "MUFU.LG2"],
        Cbrt | Sinpi | SinPiX | Sincos | SinCos => &["FFMA"],
        Sqrt => &["MUFU.RSQ"],
        Fmin => &["FMNMX"],
        Convert => &["F2I"],
    }
}
