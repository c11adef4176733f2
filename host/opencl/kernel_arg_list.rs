//! A kernel's parameter list as OpenCL reports it, and its check against a
//! Rust kernel's signature ([`Param`]s from `kernel!`).
//!
//! `clGetKernelInfo(CL_KERNEL_NUM_ARGS)` always answers; the type and address
//! space of each argument (`clGetKernelArgInfo`) only for programs built with
//! `-cl-kernel-arg-info`, which the twins are. Where that is missing (an
//! implementation that ignores the option) only the count can be checked.

use cl3::kernel::{
    CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_NUM_ARGS,
    get_kernel_arg_info, get_kernel_info,
};
use cl3::types::cl_kernel;
use kernels_gpu::device::Param;

use super::error::{ClResult, ClStatusExt};

/// One argument: its type as the source spells it (`float*`, `uint`,
/// `image1d_buffer_t`) and whether it is `__local` memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClArg {
    pub type_name: String,
    pub local: bool,
}

/// What OpenCL tells of a kernel's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClArgList {
    /// Each argument's type and address space (`-cl-kernel-arg-info`).
    Typed(Vec<ClArg>),
    /// Only how many there are (`__local` ones included).
    Count(usize),
}

impl ClArgList {
    /// Queries `kernel`: the count, then each argument's type where the
    /// implementation keeps it.
    pub(crate) fn query(kernel: cl_kernel) -> ClResult<Self> {
        let count = get_kernel_info(kernel, CL_KERNEL_NUM_ARGS)
            .during("clGetKernelInfo(CL_KERNEL_NUM_ARGS)")?
            .to_uint() as usize;
        let typed = (0..count as u32)
            .map(|index| {
                let address = get_kernel_arg_info(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER).ok()?;
                let name = get_kernel_arg_info(kernel, index, CL_KERNEL_ARG_TYPE_NAME).ok()?;
                Some(ClArg {
                    type_name: name.to_string().trim_end_matches('\0').trim().to_string(),
                    local: address.to_uint() == CL_KERNEL_ARG_ADDRESS_LOCAL,
                })
            })
            .collect::<Option<Vec<_>>>();
        Ok(match typed {
            Some(args) => Self::Typed(args),
            None => Self::Count(count),
        })
    }

    /// Checks the arguments against a Rust kernel's `params`. `__local`
    /// arguments are left out: they are the OpenCL form of the CUDA launch's
    /// dynamic shared memory, not parameters of the Rust kernel. Without type
    /// information the count can only be a lower bound (it includes them).
    pub fn check(&self, params: &[Param]) -> Result<(), String> {
        let args: Vec<&ClArg> = match self {
            Self::Count(count) if *count >= params.len() => return Ok(()),
            Self::Count(count) => {
                return Err(format!(
                    "the Rust kernel takes {} parameters, the OpenCL kernel {count} (argument types not reported)",
                    params.len()
                ));
            }
            Self::Typed(args) => args.iter().filter(|arg| !arg.local).collect(),
        };
        if args.len() != params.len() {
            return Err(format!(
                "the Rust kernel takes {} parameters ({}), the OpenCL kernel {} besides __local ones",
                params.len(),
                params.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
                args.len()
            ));
        }
        for (index, (param, arg)) in params.iter().zip(args).enumerate() {
            if type_size_and_class(&arg.type_name) != Some((param.kind.bytes(), param.kind.is_float())) {
                return Err(format!(
                    "parameter {} `{}` is {:?} ({} bytes) in the Rust kernel but `{}` in the OpenCL kernel",
                    index + 1,
                    param.name,
                    param.kind,
                    param.kind.bytes(),
                    arg.type_name
                ));
            }
        }
        Ok(())
    }
}

/// The size in bytes and float-or-bits class an OpenCL C argument type passes
/// as, as the PTX check compares them: pointers and images are 64-bit handles.
fn type_size_and_class(type_name: &str) -> Option<(usize, bool)> {
    if type_name.ends_with('*') || type_name.starts_with("image") {
        return Some((8, false));
    }
    Some(match type_name.trim_start_matches("unsigned ") {
        "char" | "uchar" => (1, false),
        "short" | "ushort" => (2, false),
        "int" | "uint" => (4, false),
        "long" | "ulong" | "size_t" => (8, false),
        "half" => (2, true),
        "float" => (4, true),
        "double" => (8, true),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::global_memory::offset_copy_params;
    use kernels_gpu::matrix_vector::matvec_block_serial_sum_params;

    fn arg(type_name: &str) -> ClArg {
        ClArg {
            type_name: type_name.into(),
            local: false,
        }
    }

    #[test]
    fn offset_copy_twin_matches() {
        let twin = ClArgList::Typed(vec![arg("float*"), arg("float*"), arg("int")]);
        assert_eq!(twin.check(offset_copy_params::PARAMS), Ok(()));
    }

    #[test]
    fn local_arguments_are_the_dynamic_shared_memory() {
        let mut args = vec![arg("float*"), arg("uint"), arg("uint"), arg("float*"), arg("float*")];
        args.push(ClArg {
            type_name: "float*".into(),
            local: true,
        });
        assert_eq!(
            ClArgList::Typed(args).check(matvec_block_serial_sum_params::PARAMS),
            Ok(())
        );
    }

    #[test]
    fn a_mistyped_or_reordered_argument_is_named() {
        let mistyped = ClArgList::Typed(vec![arg("float*"), arg("float*"), arg("float")]);
        assert_eq!(
            mistyped.check(offset_copy_params::PARAMS),
            Err("parameter 3 `offset` is S32 (4 bytes) in the Rust kernel but `float` in the OpenCL kernel".into())
        );
        let reordered = ClArgList::Typed(vec![arg("int"), arg("float*"), arg("float*")]);
        let error = reordered.check(offset_copy_params::PARAMS).unwrap_err();
        assert!(error.starts_with("parameter 1 `odata` is Pointer"), "{error}");
    }

    #[test]
    fn without_types_only_the_count_is_checked() {
        assert_eq!(ClArgList::Count(3).check(offset_copy_params::PARAMS), Ok(()));
        assert!(ClArgList::Count(2).check(offset_copy_params::PARAMS).is_err());
    }
}
