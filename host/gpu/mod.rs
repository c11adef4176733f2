//! Safe RAII wrappers over the CUDA driver API (through cudarc's `sys` and
//! `result` layers), and over the one vendor library the suite calls (cuBLAS).
//!
//! A pure driver layer: it knows GPUs, modules, buffers, events and handles,
//! not which kernels the suite has or how they are measured.

mod context;
mod cublas_handle;
mod cuda_array_2d;
mod device_allocation;
mod device_buffer;
mod device_info;
mod event_timer;
mod graphics_resource;
mod hardware_queues;
mod host_buffer;
mod launch_graph;
mod memory_pool;
mod module;
mod peer_access;
mod stream_kind;
mod texture_2d;
mod texture_handle;
mod texture_object;
mod typed_kernel;
mod watchdog;

/// The report's data the driver fills in, named here for the layer's users.
pub use crate::facts::{DeviceInfo, KernelResources};
pub use context::Gpu;
pub use cublas_handle::CublasHandle;
pub use cuda_array_2d::CudaArray2d;
pub use device_allocation::DeviceAllocation;
pub use device_buffer::{DeviceBuffer, DeviceCopy};
pub use device_info::{format_uuid, uuid_bytes};
pub use event_timer::EventTimer;
pub use graphics_resource::{GraphicsResource, MappedGraphicsResource};
pub use hardware_queues::{HARDWARE_QUEUES, request_hardware_queues};
pub use host_buffer::{HostMemoryKind, PinnedBuffer};
pub use launch_graph::LaunchGraph;
pub use memory_pool::{MemoryPool, PooledAllocation};
pub use module::{Kernel, LaunchShape, Module, ModuleGlobal};
pub use peer_access::{PeerAccess, PeerAttributes};
pub use stream_kind::{KindedStream, StreamKind};
pub use texture_2d::{Sampling, Texture2d};
pub use texture_object::TextureObject;
pub use typed_kernel::TypedKernel;
pub use watchdog::Watchdog;
