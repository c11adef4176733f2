use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, result, sys};

use super::{DeviceInfo, Kernel, Module};
use crate::error::{DriverResultExt, Error, Result};
use crate::ptx::KERNELS_PTX;

/// One GPU, opened for the suite: its primary context, a non-blocking stream
/// for all work, its properties and the suite's PTX module loaded on it.
pub struct Gpu {
    // Field order is drop order: the module is unloaded before the context is released.
    module: Module,
    stream: Arc<CudaStream>,
    ctx: Arc<CudaContext>,
    info: DeviceInfo,
}

impl Gpu {
    /// Loads the driver, opens device `ordinal` and loads the embedded PTX.
    ///
    /// No driver, no device or a wrong index give a typed error, never a panic.
    pub fn open(ordinal: usize) -> Result<Self> {
        Self::open_with_ptx(ordinal, KERNELS_PTX)
    }

    /// As [`open`](Self::open), with another PTX module (tests use a broken one).
    pub fn open_with_ptx(ordinal: usize, ptx: &str) -> Result<Self> {
        let ctx = Self::open_context(ordinal)?;
        let stream = ctx.new_stream().during("cuStreamCreate")?;
        let info = DeviceInfo::query(&ctx)?;
        let module = Module::load(&ctx, ptx)?;
        Ok(Self {
            module,
            stream,
            ctx,
            info,
        })
    }

    /// Whether a CUDA driver can be loaded at all on this machine.
    pub fn driver_present() -> bool {
        // SAFETY: only tries to dlopen libcuda; no CUDA call is made.
        unsafe { sys::is_culib_present() }
    }

    /// The number of CUDA devices, or why there are none.
    pub fn device_count() -> Result<usize> {
        if !Self::driver_present() {
            return Err(Error::NoDriver);
        }
        result::init().during("cuInit")?;
        let count = result::device::get_count().during("cuDeviceGetCount")?;
        Ok(count.max(0) as usize)
    }

    fn open_context(ordinal: usize) -> Result<Arc<CudaContext>> {
        let available = Self::device_count()?;
        if available == 0 {
            return Err(Error::NoDevice);
        }
        if ordinal >= available {
            return Err(Error::DeviceIndex {
                requested: ordinal,
                available,
            });
        }
        CudaContext::new(ordinal).during("cuDevicePrimaryCtxRetain")
    }

    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The stream all of the suite's work is issued on (non-blocking, not the legacy NULL stream).
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// A kernel of the suite's module by name.
    pub fn kernel(&self, name: &str) -> Result<&Kernel> {
        self.module.kernel(name)
    }

    /// Waits for all work on the suite's stream; surfaces asynchronous launch errors.
    pub fn synchronize(&self) -> Result<()> {
        self.stream.synchronize().during("cuStreamSynchronize")
    }

    /// Free and total device memory in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        self.ctx.mem_get_info().during("cuMemGetInfo")
    }

    /// Fails with a clear message unless `bytes` more can be allocated, keeping
    /// 256 MiB for the driver.
    pub fn ensure_free_memory(&self, bytes: u64) -> Result<()> {
        const RESERVE: u64 = 256 << 20;
        let (free, _) = self.memory_info()?;
        if bytes.saturating_add(RESERVE) > free as u64 {
            return Err(Error::OutOfDeviceMemory {
                needed_mib: bytes.div_ceil(1 << 20),
                free_mib: (free as u64) >> 20,
            });
        }
        Ok(())
    }
}
