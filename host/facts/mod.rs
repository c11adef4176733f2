//! The plain facts a run records and a report stores: a GPU's properties and
//! CUDA ordinal, what the compilers made of each kernel, and who wrote the code
//! being measured.
//!
//! This module imports nothing from the rest of the crate: the runtime layers
//! (host/gpu/, host/opencl/, host/testbed/) fill these types in, and the report
//! (host/report/) stores and reads them without depending on those layers.

mod cl_kernel_resources;
mod cuda_ordinal;
mod device_info;
mod implementation;
mod kernel_resources;

pub use cl_kernel_resources::ClKernelResources;
pub use cuda_ordinal::CudaOrdinal;
pub use device_info::DeviceInfo;
pub use implementation::Implementation;
pub use kernel_resources::KernelResources;
