use kernels_gpu::instruction_throughput::ThroughputKernel;

/// One row of the instruction-throughput table: what a kernel measures and
/// the published rate to compare with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThroughputRow {
    pub kernel: ThroughputKernel,
    /// The operation, as a report names it.
    pub operation: &'static str,
    /// The PTX entry (Rust kernel and CUDA C twin).
    pub entry: &'static str,
    /// Measured operations per thread per iteration of the kernel's loop.
    pub operations_per_thread_per_iteration: u32,
    /// What one operation is, in the unit of the peak below.
    pub unit: &'static str,
    /// The other instruction each operation comes with, if any.
    pub companion: Option<&'static str>,
    /// Operations per clock per SM on Hopper (cc 9.0) from the CUDA C
    /// Programming Guide's arithmetic-throughput table; `None` where the
    /// operation is a multi-instruction sequence or not in the table.
    pub hopper_peak_per_sm_per_clock: Option<f64>,
}

/// The CUDA C Programming Guide's throughput for compute capability 9.0, in
/// operations per clock per SM, for the operations that are one instruction
/// in its table (quoted from memory where certain; `None` otherwise):
/// FP32 add/multiply/FMA 128, FP64 64, FP16 256 (so 128 `f16x2`
/// instructions), 32-bit integer add, multiply, multiply-add, shift and
/// bitwise 64, and the special-function unit's reciprocal, reciprocal square
/// root, `__log2f`, `exp2f`, `__sinf` and `__cosf` 16. The barrier has no
/// cc 9.0 figure: the guide's synchronization paragraph (outside the table)
/// gives `__syncthreads()` rates up to cc 8.x only (16 per clock per SM for
/// 7.x and 8.x, as we recall it), so `None`.
pub fn hopper_peak_per_sm_per_clock(kernel: ThroughputKernel) -> Option<f64> {
    use ThroughputKernel::*;
    match kernel {
        F32Add | F32Mul | F32Fma | F32LiteralMul => Some(128.0),
        F64Fma => Some(64.0),
        F16x2Fma => Some(128.0),
        I32Add | I32Mul | I32Mad | U32Shift | U32Mask => Some(64.0),
        RcpApprox | RsqrtApprox | SinApprox | CosApprox | Ex2Approx | Lg2Approx | Exp2 => Some(16.0),
        CubeMul | PowCube | Pow2 | Exp10 | Pow10 | Cbrt | PowThird | Sinpi | SinPiX | Sincos | SinCos => None,
        Sqrt | Fmin | Convert => None,
        U32Div | U32Rem | RcpRn | DivRn | DivApprox | ExpFast | Sin | Exp | ExpAccurate | F64PromotedMul | I16Mad
        | I8Mad | Mul24 | RecipSqrtRn | BarSync => None,
    }
}

/// The OpenCL Programming Guide 2.3's throughput for compute capability 1.x
/// (§3.1.1.1, "operations per clock cycle per multiprocessor"), for the
/// operations it states one for: single-precision add, multiply and
/// multiply-add 8; reciprocal 2; division 0.88 and `native_divide` 1.6;
/// reciprocal square root 2; `native_log` 2 (set beside `lg2.approx`, which
/// it is built on); `native_sin`, `native_cos` and `native_exp` 1; integer
/// add 8, 32-bit multiply 2, `mul24` 8, bitwise operations 8; and (§3.1.1.4)
/// the barrier 8 where no thread has to wait. `None` where the guide
/// states no figure (integer division and modulo it only calls "particularly costly").
pub fn cc1_per_sm_per_clock(kernel: ThroughputKernel) -> Option<f64> {
    use ThroughputKernel::*;
    match kernel {
        F32Add | F32Mul | F32Fma | F32LiteralMul => Some(8.0),
        RcpApprox | RsqrtApprox | Lg2Approx => Some(2.0),
        DivRn => Some(0.88),
        DivApprox => Some(1.6),
        SinApprox | CosApprox | Ex2Approx | ExpFast => Some(1.0),
        I32Add | U32Shift | U32Mask => Some(8.0),
        I32Mul => Some(2.0),
        Mul24 => Some(8.0),
        BarSync => Some(8.0),
        // §3.1.1.1: the square root one per clock (a reciprocal square root and a reciprocal), compare/min/max
        // and type conversions 8.
        Sqrt => Some(1.0),
        Fmin | Convert => Some(8.0),
        CubeMul | PowCube | Exp2 | Pow2 | Exp10 | Pow10 | Cbrt | PowThird | Sinpi | SinPiX | Sincos | SinCos => None,
        F64Fma | F16x2Fma | I32Mad | U32Div | U32Rem | RcpRn | Sin | Exp | ExpAccurate | F64PromotedMul | I16Mad
        | I8Mad | RecipSqrtRn => None,
    }
}

/// The unit [`hopper_peak_per_sm_per_clock`] and the operation counts use.
fn unit(kernel: ThroughputKernel) -> &'static str {
    match kernel {
        ThroughputKernel::F16x2Fma => "f16x2 instruction (2 binary16 FMAs)",
        ThroughputKernel::U32Div | ThroughputKernel::U32Rem => "division or modulo (an integer instruction sequence)",
        ThroughputKernel::RcpRn | ThroughputKernel::DivRn => "IEEE-rounded result (a multi-instruction sequence)",
        ThroughputKernel::Sin | ThroughputKernel::Exp | ThroughputKernel::ExpAccurate => "function evaluation",
        k if ThroughputKernel::MATH_FUNCTIONS.contains(&k) && k != ThroughputKernel::Exp2 => "function evaluation",
        ThroughputKernel::BarSync => "thread passing a barrier (a warp's bar.sync counts 32)",
        _ => "instruction",
    }
}

/// The table for every throughput kernel, in [`ThroughputKernel::ALL`]'s order.
pub fn throughput_table() -> Vec<ThroughputRow> {
    ThroughputKernel::ALL
        .into_iter()
        .map(|kernel| ThroughputRow {
            kernel,
            operation: kernel.operation(),
            entry: kernel.entry(),
            operations_per_thread_per_iteration: kernel.operations_per_round(),
            unit: unit(kernel),
            companion: kernel.companion(),
            hopper_peak_per_sm_per_clock: hopper_peak_per_sm_per_clock(kernel),
        })
        .collect()
}
