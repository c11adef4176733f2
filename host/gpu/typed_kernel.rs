//! A kernel whose PTX `.param` list was checked against a Rust signature:
//! launching it takes the signature's argument tuple, so the compiler checks
//! each argument's type and position (cudarc's `LaunchArgs` checks each
//! argument's type alone; Rust-CUDA's `launch!` checks nothing).

use std::marker::PhantomData;

use cudarc::driver::CudaStream;
use kernels_gpu::device::KernelSignature;

use super::{Kernel, LaunchShape, Module};
use crate::error::{Error, Result};
use crate::ptx;

/// Kernel `S::NAME` of a loaded module, proved to declare `S::PARAMS`.
pub struct TypedKernel<'m, S> {
    kernel: &'m Kernel,
    signature: PhantomData<fn() -> S>,
}

impl<S> Clone for TypedKernel<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for TypedKernel<'_, S> {}

impl<'m, S: KernelSignature> TypedKernel<'m, S> {
    /// `kernel`, once its `.param` list matches `S` (count, then each
    /// parameter's size and class); a mismatch names the parameter.
    pub fn check(kernel: &'m Kernel) -> Result<Self> {
        ptx::check_signature(S::PARAMS, kernel.params()).map_err(|reason| Error::ParamMismatch {
            kernel: kernel.name().to_string(),
            reason,
        })?;
        Ok(Self {
            kernel,
            signature: PhantomData,
        })
    }

    /// The untyped kernel: its name, resources and occupancy.
    pub fn kernel(&self) -> &'m Kernel {
        self.kernel
    }

    /// Enqueues the kernel on `stream` at `shape` (grid, block and dynamic
    /// shared memory) with `args`, the kernel's parameters in order.
    ///
    /// # Safety
    /// Every access the kernel makes with `args` at `shape` stays inside live
    /// allocations: the launchers prove it from the buffers' lengths first.
    pub unsafe fn launch(&self, stream: &CudaStream, shape: LaunchShape, args: S::Args) -> Result<()> {
        // SAFETY: the argument types are S's, which match the PTX entry (checked in `check`);
        // bounds are the caller's contract.
        unsafe { self.kernel.launch_args(stream, shape, args) }
    }
}

impl Module {
    /// The kernel of signature `S`, checked against its `.param` list.
    pub fn typed<S: KernelSignature>(&self) -> Result<TypedKernel<'_, S>> {
        TypedKernel::check(self.kernel(S::NAME)?)
    }
}
