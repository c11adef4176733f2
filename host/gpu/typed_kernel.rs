//! A kernel whose PTX `.param` list was checked against a Rust signature:
//! launching it takes the signature's argument tuple, so the compiler checks
//! each argument's type and position (cudarc's `LaunchArgs` checks each
//! argument's type alone; Rust-CUDA's `launch!` checks nothing).

use std::marker::PhantomData;

use cudarc::driver::CudaStream;
use kernels_gpu::device::{KernelArgs, Signature};

use super::{Kernel, LaunchShape, Module};
use crate::error::{Error, Result};
use crate::ptx;

/// A kernel of a loaded module, proved to declare the parameters of a
/// [`Signature`] whose argument tuple is `A`.
pub struct TypedKernel<'m, A> {
    kernel: &'m Kernel,
    args: PhantomData<fn(A)>,
}

impl<A> Clone for TypedKernel<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for TypedKernel<'_, A> {}

impl<'m, A: KernelArgs> TypedKernel<'m, A> {
    /// `kernel`, once its `.param` list matches `signature` (count, then each
    /// parameter's size and class); a mismatch names the parameter.
    pub fn check(kernel: &'m Kernel, signature: Signature<A>) -> Result<Self> {
        ptx::check_signature(signature.params, kernel.params()).map_err(|reason| Error::ParamMismatch {
            kernel: kernel.name().to_string(),
            reason,
        })?;
        Ok(Self {
            kernel,
            args: PhantomData,
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
    pub unsafe fn launch(&self, stream: &CudaStream, shape: LaunchShape, args: A) -> Result<()> {
        // SAFETY: the argument types are the signature's, which match the PTX entry (checked
        // in `check`); bounds are the caller's contract.
        unsafe { self.kernel.launch_args(stream, shape, args) }
    }
}

impl Module {
    /// The kernel `signature` names, checked against its `.param` list.
    pub fn typed<A: KernelArgs>(&self, signature: Signature<A>) -> Result<TypedKernel<'_, A>> {
        TypedKernel::check(self.kernel(signature.name)?, signature)
    }
}
