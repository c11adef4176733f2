//! One kernel of a built program, what the compiler made of it
//! (`clGetKernelWorkGroupInfo`), and the values its parameters take.

use std::ffi::{CString, c_void};

use cl3::kernel::{
    CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CL_KERNEL_PRIVATE_MEM_SIZE,
    CL_KERNEL_WORK_GROUP_SIZE, create_kernel, get_kernel_work_group_data, release_kernel, set_kernel_arg,
};
use cl3::types::{cl_device_id, cl_kernel, cl_program};

use super::error::{ClResult, ClStatusExt};
use super::{ClArgList, OpenClError};
use crate::facts::ClKernelResources;

/// A kernel parameter's value: a scalar, a buffer, an image or a size of __local memory.
///
/// # Safety
/// `size_and_value` must return the size of the value OpenCL expects for this
/// kind of argument and a pointer to it valid while `self` is borrowed (or null
/// for __local memory, whose size is the argument).
pub unsafe trait KernelArg {
    fn size_and_value(&self) -> (usize, *const c_void);
}

macro_rules! scalar_args {
    ($($t:ty),*) => {$(
        // SAFETY: a plain scalar passed by value: its own size and address.
        unsafe impl KernelArg for $t {
            fn size_and_value(&self) -> (usize, *const c_void) {
                (size_of::<$t>(), (self as *const $t).cast())
            }
        }
    )*};
}
scalar_args!(i32, u32, u64, f32);

/// `bytes` of __local memory for a `__local T *` parameter (OpenCL's dynamic shared memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalMemory(pub usize);

// SAFETY: a __local argument is given by its size and a null value.
unsafe impl KernelArg for LocalMemory {
    fn size_and_value(&self) -> (usize, *const c_void) {
        (self.0, std::ptr::null())
    }
}

/// A kernel of a built program, released on drop. Its arguments are state of
/// the kernel object (`clSetKernelArg`), so it is not `Sync`: a launch sets
/// them and enqueues under `&self` with no other thread in between.
pub struct ClKernel {
    kernel: cl_kernel,
    name: String,
    resources: ClKernelResources,
    /// Its arguments as OpenCL reports them, queried once when created.
    args: ClArgList,
}

// SAFETY: a kernel object may be moved to and used from another thread; only
// concurrent clSetKernelArg calls race, which the missing Sync prevents.
unsafe impl Send for ClKernel {}

impl ClKernel {
    pub(crate) fn create(program: cl_program, device: cl_device_id, name: &str) -> ClResult<Self> {
        let c_name = CString::new(name).map_err(|_| OpenClError::MissingKernel(name.to_string()))?;
        let kernel = create_kernel(program, &c_name).map_err(|code| match code {
            cl3::error_codes::CL_INVALID_KERNEL_NAME => OpenClError::MissingKernel(name.to_string()),
            code => OpenClError::Call {
                call: "clCreateKernel",
                code,
            },
        })?;
        let mut created = Self {
            kernel,
            name: name.to_string(),
            resources: ClKernelResources {
                work_group_size: 0,
                preferred_work_group_multiple: 0,
                local_memory_bytes: 0,
                private_memory_bytes: 0,
            },
            args: ClArgList::Count(0),
        };
        created.resources = created.query_resources(device)?;
        created.args = ClArgList::query(kernel)?;
        Ok(created)
    }

    fn query_resources(&self, device: cl_device_id) -> ClResult<ClKernelResources> {
        let word = |param: u32| -> ClResult<u64> {
            let bytes = get_kernel_work_group_data(self.kernel, device, param).during("clGetKernelWorkGroupInfo")?;
            match bytes.len() {
                4 => Ok(u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as u64),
                8 => Ok(u64::from_ne_bytes(bytes.as_slice().try_into().expect("8 bytes"))),
                n => Err(OpenClError::Invalid(format!(
                    "clGetKernelWorkGroupInfo(0x{param:x}) returned {n} bytes"
                ))),
            }
        };
        Ok(ClKernelResources {
            work_group_size: word(CL_KERNEL_WORK_GROUP_SIZE)? as usize,
            preferred_work_group_multiple: word(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)? as usize,
            local_memory_bytes: word(CL_KERNEL_LOCAL_MEM_SIZE)?,
            private_memory_bytes: word(CL_KERNEL_PRIVATE_MEM_SIZE)?,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kernel's resource use as queried when it was created (before any argument was set).
    pub fn resources(&self) -> &ClKernelResources {
        &self.resources
    }

    /// Its arguments as OpenCL reports them (types where the program was
    /// built with `-cl-kernel-arg-info`).
    pub fn args(&self) -> &ClArgList {
        &self.args
    }

    /// Sets every argument, in order.
    pub(crate) fn set_args(&self, args: &[&dyn KernelArg]) -> ClResult<()> {
        for (index, arg) in args.iter().enumerate() {
            let (size, value) = arg.size_and_value();
            // SAFETY: (size, value) describe a valid argument value (KernelArg's contract); OpenCL
            // checks the size against the parameter's type and copies the value before returning.
            unsafe { set_kernel_arg(self.kernel, index as u32, size, value) }.map_err(|code| {
                OpenClError::Invalid(format!(
                    "argument {index} of {}: clSetKernelArg failed: {} ({code})",
                    self.name,
                    cl3::error_codes::error_text(code)
                ))
            })?;
        }
        Ok(())
    }

    pub(crate) fn raw(&self) -> cl_kernel {
        self.kernel
    }
}

impl Drop for ClKernel {
    fn drop(&mut self) {
        // SAFETY: the kernel is owned by this value and released once.
        let _ = unsafe { release_kernel(self.kernel) };
    }
}
