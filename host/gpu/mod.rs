//! Safe RAII wrappers over the CUDA driver API (through cudarc's `sys` and `result` layers).

mod context;
mod device_buffer;
mod device_info;
mod event_timer;
mod module;

pub use context::Gpu;
pub use device_buffer::{DeviceBuffer, DeviceCopy};
pub use device_info::DeviceInfo;
pub use event_timer::EventTimer;
pub use module::{Kernel, KernelResources, LaunchShape, Module};
