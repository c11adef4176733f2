//! The `.param` list of each PTX entry point, and its check against a Rust
//! kernel's signature ([`KernelSignature::PARAMS`](kernels_gpu::device::KernelSignature)):
//! how a CUDA C twin compiled by NVRTC, or the Rust PTX itself, is proved to
//! take the arguments a typed launch passes.
//!
//! PTX parameters carry a size and a class, not the source type: `int` and
//! `unsigned` are both `.u32`, and every pointer is a `.u64`. The check
//! compares what PTX keeps (count, size, float or bits), so two swapped `float*`
//! parameters, or an `int` for an `unsigned`, pass; a swapped `float` and
//! `int`, a dropped parameter or a 64-bit one for a 32-bit one fail.

use kernels_gpu::device::{Param, ParamKind};

/// One `.param` of an entry, as the PTX declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxParam {
    /// The declared type: `.u32`, `.f32`, `.u64`, or `.b8[16]` for an aggregate.
    pub ptx_type: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// A `.f16`/`.f32`/`.f64` value rather than bits.
    pub float: bool,
}

impl PtxParam {
    /// Parses one declaration, e.g. `.param .u64 .ptr .align 1 k_param_0` or
    /// `.param .align 4 .b8 k_param_1[16]`.
    fn parse(declaration: &str) -> Option<Self> {
        let mut tokens = declaration.split_whitespace();
        if tokens.next()? != ".param" {
            return None;
        }
        let rest: Vec<&str> = tokens.collect();
        let ptx_type = rest.iter().find(|t| fundamental_bits(t).is_some())?;
        let bits = fundamental_bits(ptx_type)?;
        let count = match rest.last()?.split_once('[') {
            Some((_, n)) => n.trim_end_matches(']').parse().ok()?,
            None => 1,
        };
        Some(Self {
            ptx_type: if count == 1 {
                ptx_type.to_string()
            } else {
                format!("{ptx_type}[{count}]")
            },
            bytes: bits / 8 * count,
            float: ptx_type.starts_with(".f") && count == 1,
        })
    }

    fn matches(&self, kind: ParamKind) -> bool {
        self.bytes == kind.bytes() && self.float == kind.is_float()
    }

    fn matches_param(&self, other: &PtxParam) -> bool {
        self.bytes == other.bytes && self.float == other.float
    }
}

/// The bits of a PTX fundamental type (`.u32` → 32), `None` for other tokens.
fn fundamental_bits(token: &str) -> Option<usize> {
    let bits = token.strip_prefix(".")?.strip_prefix(['u', 's', 'b', 'f'])?;
    match bits {
        "8" | "16" | "32" | "64" => bits.parse().ok(),
        _ => None,
    }
}

/// Every `.visible .entry` (kernel) of a PTX module with its parameter list,
/// in module order.
pub fn entry_param_lists(ptx: &str) -> Vec<(String, Vec<PtxParam>)> {
    const HEAD: &str = ".visible .entry ";
    let mut entries = Vec::new();
    let mut offset = 0;
    for line in ptx.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if !line.trim_start().starts_with(HEAD) {
            continue;
        }
        let header = &ptx[start + line.find(HEAD).unwrap_or(0) + HEAD.len()..];
        let (Some(open), Some(close)) = (header.find('('), header.find(')')) else {
            continue;
        };
        if close < open {
            continue;
        }
        let params = header[open + 1..close]
            .split(',')
            .filter_map(|declaration| PtxParam::parse(declaration.trim()))
            .collect();
        entries.push((header[..open].trim().to_string(), params));
    }
    entries
}

/// Checks an entry's `.param` list against a Rust kernel's signature: the
/// count, then each parameter's size and class. `Err` names the parameter.
pub fn check_signature(params: &[Param], ptx: &[PtxParam]) -> Result<(), String> {
    if params.len() != ptx.len() {
        return Err(format!(
            "the Rust kernel takes {} parameters ({}), the PTX entry {}",
            params.len(),
            params.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
            ptx.len()
        ));
    }
    match params
        .iter()
        .zip(ptx)
        .enumerate()
        .find(|(_, (p, x))| !x.matches(p.kind))
    {
        None => Ok(()),
        Some((index, (param, found))) => Err(format!(
            "parameter {} `{}` is {:?} ({}, {} bytes) in the Rust kernel but {} ({} bytes) in the PTX",
            index + 1,
            param.name,
            param.kind,
            param.kind.ptx_type(),
            param.kind.bytes(),
            found.ptx_type,
            found.bytes
        )),
    }
}

/// Checks a twin entry's `.param` list against the Rust kernel's entry of the
/// same name (both PTX). `Err` names the parameter by position and type.
pub fn check_twin(rust: &[PtxParam], twin: &[PtxParam]) -> Result<(), String> {
    if rust.len() != twin.len() {
        return Err(format!(
            "the Rust kernel takes {} parameters, the twin {}",
            rust.len(),
            twin.len()
        ));
    }
    match rust
        .iter()
        .zip(twin)
        .enumerate()
        .find(|(_, (r, t))| !r.matches_param(t))
    {
        None => Ok(()),
        Some((index, (r, t))) => Err(format!(
            "parameter {} is {} ({} bytes) in the Rust kernel but {} ({} bytes) in the twin",
            index + 1,
            r.ptx_type,
            r.bytes,
            t.ptx_type,
            t.bytes
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::global_memory::offset_copy_params;

    /// `offset_copy` as NVRTC compiles the CUDA C twin (mangled C++ names, as without `extern "C"`).
    const NVRTC_OFFSET_COPY: &str = "
.visible .entry offset_copy(
	.param .u64 offset_copy_param_0,
	.param .u64 offset_copy_param_1,
	.param .u32 offset_copy_param_2
)
{
	ret;
}
.visible .entry empty()
{
	ret;
}
.visible .entry packed(
	.param .align 4 .b8 packed_param_0[16],
	.param .f64 packed_param_1
)
{
	ret;
}
";

    fn params_of(ptx: &str, name: &str) -> Vec<PtxParam> {
        entry_param_lists(ptx)
            .into_iter()
            .find(|(entry, _)| entry == name)
            .map(|(_, params)| params)
            .unwrap_or_else(|| panic!("{name} not in the fixture"))
    }

    #[test]
    fn parses_scalars_pointers_and_aggregates() {
        let lists = entry_param_lists(NVRTC_OFFSET_COPY);
        let names: Vec<&str> = lists.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["offset_copy", "empty", "packed"]);
        let copy = &lists[0].1;
        assert_eq!(copy.len(), 3);
        assert_eq!(
            (copy[0].ptx_type.as_str(), copy[0].bytes, copy[0].float),
            (".u64", 8, false)
        );
        assert_eq!((copy[2].ptx_type.as_str(), copy[2].bytes), (".u32", 4));
        assert!(lists[1].1.is_empty());
        let packed = &lists[2].1;
        assert_eq!(
            (packed[0].ptx_type.as_str(), packed[0].bytes, packed[0].float),
            (".b8[16]", 16, false)
        );
        assert_eq!((packed[1].bytes, packed[1].float), (8, true));
    }

    #[test]
    fn rust_ptx_pointer_params_parse_as_u64() {
        let rust = ".visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .f32 k_param_1\n)\n{\n}\n";
        let params = params_of(rust, "k");
        assert_eq!(params[0].ptx_type, ".u64");
        assert_eq!((params[1].ptx_type.as_str(), params[1].float), (".f32", true));
    }

    #[test]
    fn the_twin_matches_the_rust_signature() {
        let ptx = params_of(NVRTC_OFFSET_COPY, "offset_copy");
        assert_eq!(offset_copy_params::NAME, "offset_copy");
        assert_eq!(check_signature(offset_copy_params::PARAMS, &ptx), Ok(()));
    }

    #[test]
    fn a_mistyped_parameter_is_named() {
        let mistyped = NVRTC_OFFSET_COPY.replace(".u32 offset_copy_param_2", ".f32 offset_copy_param_2");
        let error = check_signature(offset_copy_params::PARAMS, &params_of(&mistyped, "offset_copy")).unwrap_err();
        assert!(
            error.starts_with("parameter 3 `offset` is S32 (.u32, 4 bytes)"),
            "{error}"
        );
        assert!(error.ends_with("but .f32 (4 bytes) in the PTX"), "{error}");
    }

    #[test]
    fn a_reordered_parameter_is_named() {
        // The int moved to the front: (int, float*, float*).
        let reordered = NVRTC_OFFSET_COPY
            .replace(".u64 offset_copy_param_0", ".u32 offset_copy_param_0")
            .replace(".u32 offset_copy_param_2", ".u64 offset_copy_param_2");
        let error = check_signature(offset_copy_params::PARAMS, &params_of(&reordered, "offset_copy")).unwrap_err();
        assert!(
            error.starts_with("parameter 1 `odata` is Pointer (.u64, 8 bytes)"),
            "{error}"
        );
        let rust = params_of(NVRTC_OFFSET_COPY, "offset_copy");
        let twin_error = check_twin(&rust, &params_of(&reordered, "offset_copy")).unwrap_err();
        assert_eq!(
            twin_error,
            "parameter 1 is .u64 (8 bytes) in the Rust kernel but .u32 (4 bytes) in the twin"
        );
    }

    #[test]
    fn a_missing_parameter_is_counted() {
        let short = NVRTC_OFFSET_COPY.replace(",\n\t.param .u32 offset_copy_param_2", "");
        let error = check_signature(offset_copy_params::PARAMS, &params_of(&short, "offset_copy")).unwrap_err();
        assert_eq!(
            error,
            "the Rust kernel takes 3 parameters (odata, idata, offset), the PTX entry 2"
        );
    }
}
