//! SASS opcodes grouped by what they do and, where NVIDIA says so, the
//! pipe that executes them: the FMA pipes (FP32 arithmetic; `IMAD` and
//! `IMUL` on the FMA-heavy half only), the integer ALU (integer add, logic,
//! shifts, compares, moves: "excluding IMAD and IMUL"), FP64, the MUFU
//! (XU) unit. Sources: Nsight Compute's Kernel Profiling Guide (pipelines)
//! and NVIDIA's statements on the Volta–Hopper pipes (e.g. "FMA pipe:
//! FP32 and IMAD; ALU pipe: INT32 (not IMAD), logical, binary and data
//! movement"; GH100: FMA-heavy handles IMAD and FP32, FMA-lite FP32).
//! Classes whose pipe NVIDIA does not document (Hopper's `VIADD`, FP32
//! compares and selects, `HFMA2.MMA`, conversions) say so: a ceiling check
//! counts them only against the issue rate. The classic conversions
//! (`F2I`, `I2F`, …) have the 16-per-clock rate of the CUDA C Programming
//! Guide's table; the ones Ampere added (`I2FP`, `F2IP`, `F2FP`) do not:
//! on an H100, `F2I.TRUNC` + `I2FP.F32.S32` round trips run at 15.4 per
//! clock per SM (30.7 conversions), so `I2FP` issues beside `F2I`, not
//! after it.

/// What a SASS instruction does, for counting a loop's instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SassClass {
    /// `FFMA`, `FADD`, `FMUL`: the FMA pipes.
    Fp32Arithmetic,
    /// `FSETP`, `FSEL`, `FMNMX`, `FCHK`, `FSET`, `FSWZADD`.
    Fp32CompareSelect,
    /// `IMAD` (and `IMAD.IADD`, `IMAD.MOV`, `IMAD.SHL`, `IMAD.WIDE`, `IMAD.HI`), `IMUL`, `IDP`: the FMA-heavy pipe.
    IntegerMultiplyAdd,
    /// `IADD3`, `LOP3`, `SHF`, `LEA`, `ISETP`, `IMNMX`, `SEL`, `PRMT`, `MOV`, …: the integer ALU.
    IntegerAlu,
    /// `VIADD` (sm_90 on): an integer add whose pipe is not documented.
    IntegerAddVector,
    /// `HFMA2`, `HADD2`, `HMUL2`: packed FP16 on the FMA pipes.
    Fp16Arithmetic,
    /// `HFMA2.MMA`: packed FP16 issued to the MMA datapath (ptxas also loads constants with it).
    Fp16OnMma,
    /// `DFMA`, `DADD`, `DMUL`, `DSETP`: the FP64 pipe.
    Fp64,
    /// `MUFU.*` (reciprocal, square root, sine, cosine, 2^x, log2): the XU.
    Transcendental,
    /// `F2F`, `I2F`, `F2I`, `I2I`, `FRND`: the published 16 per clock per SM.
    Conversion,
    /// `I2FP`, `F2IP`, `F2FP` (sm_86 on): conversions off the 16-per-clock
    /// pipe; NVIDIA documents no pipe or rate for them.
    ConversionSinceAmpere,
    /// Global, shared, local and constant memory, atomics, textures.
    Memory,
    /// `U*`: the uniform datapath (one value per warp).
    Uniform,
    /// Branches, calls, exits, convergence barriers (`BSSY`, `BSYNC`, `WARPSYNC`), `NOP`.
    Control,
    /// Anything else (special registers, shuffles, votes, tensor cores, …).
    Other,
}

/// An execution pipe a class is documented to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SassPipe {
    /// FMA-heavy and FMA-lite together (FP32, FP16x2).
    Fma,
    /// FMA-heavy alone (integer multiply-add).
    FmaHeavy,
    Alu,
    Fp64,
    Xu,
    Uniform,
    Memory,
    Control,
}

impl SassClass {
    pub const ALL: [Self; 15] = [
        Self::Fp32Arithmetic,
        Self::Fp32CompareSelect,
        Self::IntegerMultiplyAdd,
        Self::IntegerAlu,
        Self::IntegerAddVector,
        Self::Fp16Arithmetic,
        Self::Fp16OnMma,
        Self::Fp64,
        Self::Transcendental,
        Self::Conversion,
        Self::ConversionSinceAmpere,
        Self::Memory,
        Self::Uniform,
        Self::Control,
        Self::Other,
    ];

    /// The class of an opcode (with or without modifiers).
    pub fn of(opcode: &str) -> Self {
        let base = opcode.split('.').next().unwrap_or("");
        match base {
            "FFMA" | "FADD" | "FMUL" | "FFMA2" | "FADD2" | "FMUL2" | "FFMA32I" | "FADD32I" | "FMUL32I" => {
                Self::Fp32Arithmetic
            }
            "FSETP" | "FSEL" | "FMNMX" | "FMNMX3" | "FCHK" | "FSET" | "FSWZADD" => Self::Fp32CompareSelect,
            "IMAD" | "IMUL" | "IDP" | "IMADSP" | "IMAD32I" | "IMUL32I" | "XMAD" => Self::IntegerMultiplyAdd,
            "IADD3" | "IADD" | "IADD32I" | "ISCADD" | "LOP3" | "LOP" | "LOP32I" | "SHF" | "SHL" | "SHR" | "LEA"
            | "ISETP" | "ISET" | "ICMP" | "IMNMX" | "VIMNMX" | "VIMNMX3" | "SEL" | "PRMT" | "IABS" | "SGXT"
            | "BMSK" | "PLOP3" | "PSETP" | "P2R" | "R2P" | "MOV" | "MOV32I" | "CS2R" => Self::IntegerAlu,
            "VIADD" | "VIADDMNMX" => Self::IntegerAddVector,
            "HFMA2" if opcode.split('.').any(|m| m == "MMA") => Self::Fp16OnMma,
            "HFMA2" | "HADD2" | "HMUL2" | "HSETP2" | "HSET2" | "HMNMX2" | "HFMA2_32I" => Self::Fp16Arithmetic,
            "DFMA" | "DADD" | "DMUL" | "DSETP" | "DMNMX" | "DSET" => Self::Fp64,
            "MUFU" => Self::Transcendental,
            "F2F" | "F2I" | "I2F" | "I2I" | "FRND" => Self::Conversion,
            "I2FP" | "F2IP" | "F2FP" => Self::ConversionSinceAmpere,
            "LDG" | "STG" | "LDS" | "STS" | "LDL" | "STL" | "LD" | "ST" | "LDC" | "LDSM" | "STSM" | "LDGSTS"
            | "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG" | "TEX" | "TLD" | "TLD4" | "TXQ" | "SULD" | "SUST"
            | "LDGDEPBAR" | "CCTL" => Self::Memory,
            "BRA" | "BRX" | "JMP" | "JMX" | "CALL" | "RET" | "EXIT" | "KILL" | "BSSY" | "BSYNC" | "WARPSYNC"
            | "BREAK" | "BMOV" | "BPT" | "YIELD" | "NOP" | "BAR" | "SSY" | "SYNC" | "PBK" | "BRK" | "PCNT" | "CONT" => {
                Self::Control
            }
            _ if base.starts_with('U') && base.len() > 1 => Self::Uniform,
            "S2UR" | "R2UR" => Self::Uniform,
            _ => Self::Other,
        }
    }

    /// The pipe NVIDIA documents for the class, if it does.
    pub fn pipe(self) -> Option<SassPipe> {
        match self {
            Self::Fp32Arithmetic | Self::Fp16Arithmetic => Some(SassPipe::Fma),
            Self::IntegerMultiplyAdd => Some(SassPipe::FmaHeavy),
            Self::IntegerAlu => Some(SassPipe::Alu),
            Self::Fp64 => Some(SassPipe::Fp64),
            Self::Transcendental => Some(SassPipe::Xu),
            Self::Uniform => Some(SassPipe::Uniform),
            Self::Memory => Some(SassPipe::Memory),
            Self::Control => Some(SassPipe::Control),
            Self::Fp32CompareSelect
            | Self::IntegerAddVector
            | Self::Fp16OnMma
            | Self::Conversion
            | Self::ConversionSinceAmpere
            | Self::Other => None,
        }
    }

    /// A short name for reports, e.g. "integer ALU".
    pub fn label(self) -> &'static str {
        match self {
            Self::Fp32Arithmetic => "FP32 FFMA/FADD/FMUL",
            Self::Fp32CompareSelect => "FP32 compare/select",
            Self::IntegerMultiplyAdd => "integer IMAD/IMUL (FMA-heavy pipe)",
            Self::IntegerAlu => "integer ALU (IADD3/LOP3/SHF/ISETP/MOV)",
            Self::IntegerAddVector => "integer VIADD",
            Self::Fp16Arithmetic => "FP16x2 HFMA2/HADD2/HMUL2",
            Self::Fp16OnMma => "FP16x2 HFMA2.MMA",
            Self::Fp64 => "FP64 DFMA/DADD/DMUL",
            Self::Transcendental => "MUFU",
            Self::Conversion => "conversion F2F/I2F/F2I",
            Self::ConversionSinceAmpere => "conversion I2FP/F2IP/F2FP",
            Self::Memory => "memory",
            Self::Uniform => "uniform datapath",
            Self::Control => "control",
            Self::Other => "other",
        }
    }

    /// A stable key for stored figures, e.g. `integer-alu`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Fp32Arithmetic => "fp32",
            Self::Fp32CompareSelect => "fp32-compare-select",
            Self::IntegerMultiplyAdd => "integer-multiply-add",
            Self::IntegerAlu => "integer-alu",
            Self::IntegerAddVector => "integer-viadd",
            Self::Fp16Arithmetic => "fp16x2",
            Self::Fp16OnMma => "fp16x2-mma",
            Self::Fp64 => "fp64",
            Self::Transcendental => "mufu",
            Self::Conversion => "conversion",
            Self::ConversionSinceAmpere => "conversion-since-ampere",
            Self::Memory => "memory",
            Self::Uniform => "uniform",
            Self::Control => "control",
            Self::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{SassClass, SassPipe};

    #[test]
    fn opcodes_fall_into_their_classes() {
        use SassClass::*;
        for (opcode, class) in [
            ("FFMA", Fp32Arithmetic),
            ("FMUL.RZ", Fp32Arithmetic),
            ("IMAD.IADD", IntegerMultiplyAdd),
            ("IMAD.WIDE.U32", IntegerMultiplyAdd),
            ("IADD3", IntegerAlu),
            ("IADD3.X", IntegerAlu),
            ("SHF.R.U32.HI", IntegerAlu),
            ("LOP3.LUT", IntegerAlu),
            ("ISETP.NE.U32.AND", IntegerAlu),
            ("VIADD", IntegerAddVector),
            ("HFMA2", Fp16Arithmetic),
            ("HFMA2.MMA", Fp16OnMma),
            ("DMUL", Fp64),
            ("MUFU.SIN", Transcendental),
            ("F2F.F64.F32", Conversion),
            ("I2F.U64", Conversion),
            ("F2I.TRUNC.NTZ", Conversion),
            ("I2FP.F32.S32", ConversionSinceAmpere),
            ("F2FP.F16.F32.PACK_AB", ConversionSinceAmpere),
            ("LDG.E.CONSTANT", Memory),
            ("ULDC.64", Uniform),
            ("UIADD3", Uniform),
            ("BSSY", Control),
            ("WARPSYNC.ALL", Control),
            ("S2R", Other),
            ("SHFL.BFLY", Other),
        ] {
            assert_eq!(SassClass::of(opcode), class, "{opcode}");
        }
        assert_eq!(IntegerAlu.pipe(), Some(SassPipe::Alu));
        assert_eq!(IntegerMultiplyAdd.pipe(), Some(SassPipe::FmaHeavy));
        assert_eq!(IntegerAddVector.pipe(), None, "not documented");
        let keys: std::collections::HashSet<_> = SassClass::ALL.iter().map(|c| c.key()).collect();
        assert_eq!(keys.len(), SassClass::ALL.len());
    }
}
