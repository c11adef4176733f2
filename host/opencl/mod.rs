//! OpenCL, the suite's third implementation: a safe layer over the OpenCL
//! runtime (loaded at run time through cl3's `dynamic` feature, so building
//! needs no OpenCL SDK and no GPU), and the OpenCL C twins of the kernels.
//!
//! A sibling of [`gpu`](crate::gpu), never imported by it. RAII types for every
//! OpenCL object, typed errors ([`OpenClError`], converted into [`Error`](crate::Error)):
//! * [`OpenClRuntime`] lists the devices ([`OpenClDeviceInfo`]) and finds the
//!   one that is a given CUDA device by UUID or PCI address ([`OpenClRuntime::device_matching`]);
//! * [`ClContext`], [`ClQueue`] (in-order, profiling; [`ClQueue::time_ms`] times with events),
//!   [`ClProgram`] (build errors carry the log), [`ClKernel`] (resources from
//!   `clGetKernelWorkGroupInfo`), [`ClBuffer`], [`MappedHostBuffer`] (pinned memory the
//!   OpenCL way), [`Image1dBuffer`] (the texture path), [`ClEvent`];
//! * [`OpenClTwins`]: `host/opencl_c/*.cl` built for a device;
//! * [`register_vendor_libraries`]: makes NVIDIA's driver visible where the system did not register it.

mod buffer;
mod context;
mod device;
mod device_info;
mod device_matching;
mod error;
mod event;
mod image1d_buffer;
mod kernel;
mod kernel_arg_list;
mod mapped_host_buffer;
mod nd_range;
mod opencl_c_twins;
mod pci_address;
mod program;
mod queue;
mod runtime;
mod vendor_registration;

/// The report's record of a kernel, which this layer fills in.
pub use crate::facts::ClKernelResources;
pub use buffer::ClBuffer;
pub use context::ClContext;
pub use device::OpenClDevice;
pub use device_info::{
    CL_DEVICE_PCI_BUS_ID_NV, CL_DEVICE_PCI_BUS_INFO_KHR, CL_DEVICE_PCI_SLOT_ID_NV, CL_DEVICE_UUID_KHR, ClDeviceType,
    OpenClDeviceInfo, name_versions, pci_bus_info_khr, uuid_string, version_number,
};
pub use device_matching::{DeviceMatch, match_device};
pub use error::{ClResult, OpenClError};
pub use event::ClEvent;
pub use image1d_buffer::Image1dBuffer;
pub use kernel::{ClKernel, KernelArg, LocalMemory};
pub use kernel_arg_list::{ClArg, ClArgList};
pub use mapped_host_buffer::MappedHostBuffer;
pub use nd_range::NdRange;
pub use opencl_c_twins::{
    DIVERGENCE_UNROLL_OPTION, LOCAL_ARRAY_SPILLED_OPTION, LOCAL_MEMORY_SOURCE, MatvecReduction, OPENCL_C_SOURCE,
    OPENCL_C_THROUGHPUT_SOURCE, OpenClTwins, PRAGMA_UNROLL_EXTENSION, THROUGHPUT_BASE_OPTIONS, twin_build_options,
};
pub use pci_address::PciAddress;
pub use program::ClProgram;
pub use queue::ClQueue;
pub use runtime::OpenClRuntime;
pub use vendor_registration::{
    NVIDIA_OPENCL_CANDIDATES, VendorRegistration, loadable_nvidia_library, plan_vendor_registration,
    register_vendor_libraries, registered_icd_files,
};
