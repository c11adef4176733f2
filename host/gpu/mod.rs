//! Safe RAII wrappers over the CUDA driver API (through cudarc's `sys` and `result` layers).

mod context;
mod cublas_handle;
mod cuda_c_twins;
mod device_buffer;
mod device_info;
mod event_timer;
mod host_buffer;
mod implementation;
mod module;
mod texture_object;
mod watchdog;

pub use context::Gpu;
pub use cublas_handle::CublasHandle;
pub use cuda_c_twins::{CUDA_C_SOURCE, compile_twins};
pub use device_buffer::{DeviceBuffer, DeviceCopy};
pub use device_info::DeviceInfo;
pub use event_timer::EventTimer;
pub use host_buffer::{HostMemoryKind, PinnedBuffer};
pub use implementation::Implementation;
pub use module::{Kernel, KernelResources, LaunchShape, Module, ModuleGlobal};
pub use texture_object::TextureObject;
pub use watchdog::{DEFAULT_KERNEL_TIMEOUT, Watchdog};
