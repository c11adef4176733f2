//! The issue limits of an SM of compute capability 9.0 (Hopper), in
//! thread-instructions per clock per SM, for [`operation_ceiling`]: four
//! schedulers each issue one warp instruction (32 lanes) per clock; the
//! pipes' rates are the CUDA C Programming Guide's cc 9.0 throughput table
//! (FP32 add/multiply/FMA 128; 32-bit integer add, shift, logic, compare
//! and multiply(-add) 64 each; FP64 64; the SFU functions 16; conversions
//! 16, which holds for `F2I`/`I2F`/`F2F`, not Ampere's `I2FP`), attributed to the pipes as in
//! [`SassClass::pipe`]: FP32 and FP16x2 share the two FMA pipes (128) with
//! `IMAD`, which only the FMA-heavy half runs (64).
//!
//! [`operation_ceiling`]: super::operation_ceiling
//! [`SassClass::pipe`]: super::SassClass::pipe

use super::opcode_class::SassClass::*;
use super::operation_ceiling::IssueLimit;

const HOPPER: [IssueLimit; 7] = [
    IssueLimit {
        name: "instruction issue (4 schedulers × 32 lanes)",
        classes: &[],
        per_clock_per_sm: 128.0,
    },
    IssueLimit {
        name: "FMA pipes (FP32, FP16x2 and IMAD)",
        classes: &[Fp32Arithmetic, Fp16Arithmetic, IntegerMultiplyAdd],
        per_clock_per_sm: 128.0,
    },
    IssueLimit {
        name: "FMA-heavy pipe (IMAD)",
        classes: &[IntegerMultiplyAdd],
        per_clock_per_sm: 64.0,
    },
    IssueLimit {
        name: "integer ALU (IADD3, LOP3, SHF, ISETP, MOV)",
        classes: &[IntegerAlu],
        per_clock_per_sm: 64.0,
    },
    IssueLimit {
        name: "FP64 pipe",
        classes: &[Fp64],
        per_clock_per_sm: 64.0,
    },
    IssueLimit {
        name: "MUFU (XU)",
        classes: &[Transcendental],
        per_clock_per_sm: 16.0,
    },
    IssueLimit {
        name: "conversions (F2I, I2F, F2F, I2I, FRND)",
        classes: &[Conversion],
        per_clock_per_sm: 16.0,
    },
];

/// The issue limits of a GPU of `compute_capability`, where this table has
/// them (cc 9.0 only).
pub fn issue_limits(compute_capability: (u32, u32)) -> Option<&'static [IssueLimit]> {
    (compute_capability == (9, 0)).then_some(&HOPPER[..])
}

#[cfg(test)]
mod tests {
    use super::issue_limits;

    #[test]
    fn only_hopper_has_a_table() {
        let limits = issue_limits((9, 0)).unwrap();
        assert_eq!(limits[0].per_clock_per_sm, 128.0);
        assert!(limits[0].classes.is_empty(), "the issue limit counts every instruction");
        assert!(issue_limits((8, 0)).is_none());
        assert!(issue_limits((10, 0)).is_none());
    }
}
