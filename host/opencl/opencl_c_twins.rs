//! The OpenCL C twins of the Rust kernels (`host/opencl_c/*.cl`), built once
//! per context with every kernel looked up.

use serde::{Deserialize, Serialize};

use kernels_gpu::device::{Param, Signature};

use super::error::ClResult;
use super::{ClContext, ClKernel, ClProgram, OpenClDeviceInfo, OpenClError};

/// The OpenCL C versions of the kernels: same algorithms, same launch shapes,
/// same entry names as the Rust kernels. Each family lists the kernels of its
/// file beside its OpenCL launcher (`launchers::opencl_c_kernels`, in this
/// order); `tests/opencl_logic.rs` pins the order of the files and names any
/// `.cl` file joined nowhere. The order is kept by hand: the extension pragmas
/// of `global_memory.cl` (`cl_khr_fp64`) and `matrix_vector.cl`
/// (`cl_khr_subgroups`) hold for every file after them.
pub const OPENCL_C_SOURCE: &str = concat!(
    include_str!("../opencl_c/global_memory.cl"),
    "\n",
    include_str!("../opencl_c/matrix_vector.cl"),
    "\n",
    include_str!("../opencl_c/matrix_multiply.cl"),
    "\n",
    include_str!("../opencl_c/streams.cl"),
    "\n",
    include_str!("../opencl_c/divergence.cl"),
    "\n",
    include_str!("../opencl_c/shared_memory_banks.cl"),
    "\n",
    include_str!("../opencl_c/constant_memory.cl"),
    "\n",
    include_str!("../opencl_c/local_memory.cl"),
    "\n",
    include_str!("../opencl_c/reduction.cl")
);

/// The local-memory twins' source alone (also part of [`OPENCL_C_SOURCE`]):
/// built a second time with [`LOCAL_ARRAY_SPILLED_OPTION`] and a register
/// cap, it holds `local_array_spilled` alone.
pub const LOCAL_MEMORY_SOURCE: &str = include_str!("../opencl_c/local_memory.cl");

/// Selects `local_array_spilled` (and nothing else) in [`LOCAL_MEMORY_SOURCE`].
pub const LOCAL_ARRAY_SPILLED_OPTION: &str = "-D LOCAL_ARRAY_SPILLED";

/// The OpenCL C twins of the throughput kernels the OpenCL guide §3.1.1.1
/// states rates or advice for: built apart from [`OPENCL_C_SOURCE`], once per
/// build option measured (none, `-cl-mad-enable`, `-cl-fast-relaxed-math`).
pub const OPENCL_C_THROUGHPUT_SOURCE: &str = include_str!("../opencl_c/instruction_throughput.cl");

/// The options every build of [`OPENCL_C_THROUGHPUT_SOURCE`] takes (argument
/// types for the checks against the Rust kernels), before the one measured.
pub const THROUGHPUT_BASE_OPTIONS: &str = "-cl-kernel-arg-info";

/// How the two warp-level matrix-vector kernels (`matvec_warp_shuffle`,
/// `matvec_warp_per_row`) reduce 32 partial sums in OpenCL C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatvecReduction {
    /// `sub_group_reduce_add` over the device's sub-groups (`-D MATVEC_SUB_GROUPS`).
    SubGroups,
    /// Trees in __local memory with work-group barriers: OpenCL C 1.2 has
    /// neither shuffles nor sub-groups (NVIDIA's OpenCL, PoCL's CPU device).
    LocalMemory,
}

impl MatvecReduction {
    pub fn label(self) -> &'static str {
        match self {
            Self::SubGroups => "sub-group reduction (sub_group_reduce_add)",
            Self::LocalMemory => "__local-memory reduction with work-group barriers (no sub-groups)",
        }
    }
}

/// NVIDIA's extension that makes its OpenCL C compiler honour `#pragma unroll N`.
pub const PRAGMA_UNROLL_EXTENSION: &str = "cl_nv_pragma_unroll";

/// Unrolls each path loop of the divergence twins 8 times (`#pragma unroll 8`,
/// as rustc unrolls the Rust kernel), given only where the device has
/// [`PRAGMA_UNROLL_EXTENSION`]: elsewhere the loops are plain (PoCL's
/// work-group loops leave clang unable to honour the pragma, and it warns).
pub const DIVERGENCE_UNROLL_OPTION: &str = "-D DIVERGENCE_PRAGMA_UNROLL";

/// The build options for the twins on a device, and the reduction they select:
/// sub-groups where the device offers them (OpenCL C 3.0 with
/// `__opencl_c_subgroups`, or `cl_khr_subgroups` with OpenCL C 2.0+), unless
/// `prefer` says otherwise; `-cl-nv-verbose` on NVIDIA, so the build log lists
/// each kernel's registers and spills as ptxas reports them; and
/// [`DIVERGENCE_UNROLL_OPTION`] where the compiler honours `#pragma unroll`.
pub fn twin_build_options(info: &OpenClDeviceInfo, prefer: Option<MatvecReduction>) -> (String, MatvecReduction) {
    let c_version = info.opencl_c_version_number().unwrap_or((1, 2));
    let sub_group_std = if c_version >= (3, 0) && info.opencl_c_features.iter().any(|f| f == "__opencl_c_subgroups") {
        Some("-cl-std=CL3.0")
    } else if c_version >= (2, 0) && info.has_extension("cl_khr_subgroups") {
        Some("-cl-std=CL2.0")
    } else {
        None
    };
    // Argument types and address spaces for clGetKernelArgInfo: the launchers check them against the Rust kernels.
    let mut options = vec!["-cl-kernel-arg-info"];
    let reduction = match (sub_group_std, prefer) {
        (Some(std), None | Some(MatvecReduction::SubGroups)) => {
            options.extend([std, "-D MATVEC_SUB_GROUPS"]);
            MatvecReduction::SubGroups
        }
        _ => MatvecReduction::LocalMemory,
    };
    if info.has_extension("cl_nv_compiler_options") {
        options.push("-cl-nv-verbose");
    }
    if info.has_extension(PRAGMA_UNROLL_EXTENSION) {
        options.push(DIVERGENCE_UNROLL_OPTION);
    }
    (options.join(" "), reduction)
}

/// The twins built for one context's device, every kernel looked up.
pub struct OpenClTwins {
    program: ClProgram,
    kernels: Vec<ClKernel>,
    reduction: MatvecReduction,
}

impl OpenClTwins {
    /// Builds [`OPENCL_C_SOURCE`] with [`twin_build_options`]; a compile error
    /// carries the compiler's log.
    pub fn build(context: &ClContext) -> ClResult<Self> {
        Self::build_with(context, None)
    }

    /// As [`build`](Self::build), asking for a reduction: `SubGroups` is refused
    /// on a device without sub-groups; `LocalMemory` always builds.
    pub fn build_with(context: &ClContext, prefer: Option<MatvecReduction>) -> ClResult<Self> {
        let info = context.device().info();
        let (options, reduction) = twin_build_options(info, prefer);
        if prefer.is_some_and(|p| p != reduction) {
            return Err(OpenClError::Invalid(format!(
                "{} offers no sub-groups ({}, no cl_khr_subgroups or __opencl_c_subgroups)",
                info.name.trim(),
                info.opencl_c_version.trim()
            )));
        }
        Self::build_source(context, OPENCL_C_SOURCE, &options, reduction)
    }

    /// Builds another source with the same lookup (tests build broken programs with it).
    pub fn build_source(
        context: &ClContext,
        source: &str,
        options: &str,
        reduction: MatvecReduction,
    ) -> ClResult<Self> {
        let program = ClProgram::build(context, source, options)?;
        let mut names = program.kernel_names()?;
        names.sort();
        names.dedup();
        let kernels = names
            .iter()
            .map(|name| program.kernel(name))
            .collect::<ClResult<Vec<_>>>()?;
        Ok(Self {
            program,
            kernels,
            reduction,
        })
    }

    /// The twin of the Rust kernel `signature`, its arguments checked against
    /// the Rust parameters ([`ClArgList::check`]): a mismatch names the parameter.
    pub fn kernel_of<A>(&self, signature: Signature<A>) -> ClResult<&ClKernel> {
        self.checked_kernel(signature.name, signature.params, "its Rust kernel's parameters")
    }

    /// The twin `name`, its arguments checked against `params`: for a twin
    /// whose parameters differ from its Rust kernel's (no block spans, as
    /// OpenCL C has no SM clock; a `__constant` table passed as an argument).
    pub fn kernel_taking(&self, name: &str, params: &[Param]) -> ClResult<&ClKernel> {
        self.checked_kernel(name, params, "the parameters its launcher passes")
    }

    fn checked_kernel(&self, name: &str, params: &[Param], what: &str) -> ClResult<&ClKernel> {
        let kernel = self.kernel(name)?;
        kernel.args().check(params).map_err(|reason| {
            OpenClError::Invalid(format!("the OpenCL C twin {name} does not take {what}: {reason}"))
        })?;
        Ok(kernel)
    }

    /// A kernel by its entry name ([`OpenClError::MissingKernel`] if the program has none).
    pub fn kernel(&self, name: &str) -> ClResult<&ClKernel> {
        self.kernels
            .iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| OpenClError::MissingKernel(name.to_string()))
    }

    pub fn kernels(&self) -> &[ClKernel] {
        &self.kernels
    }

    /// Which reduction the warp-level matrix-vector kernels were built with.
    pub fn reduction(&self) -> MatvecReduction {
        self.reduction
    }

    pub fn program(&self) -> &ClProgram {
        &self.program
    }
}
