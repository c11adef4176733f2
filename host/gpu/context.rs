use std::sync::Arc;
use std::time::Duration;

use cudarc::driver::{CudaContext, CudaEvent, CudaStream, result, sys};

use super::{DeviceInfo, Kernel, Watchdog};
use crate::error::{DriverResultExt, Error, Result};
use crate::facts::CudaOrdinal;

/// One GPU, opened: its primary context, a non-blocking stream for all work,
/// its properties and the kernel time limit every wait on it observes.
///
/// A pure driver handle: which PTX runs on it is the caller's business
/// (the suite's modules live in [`crate::testbed`]).
pub struct Gpu {
    stream: Arc<CudaStream>,
    ctx: Arc<CudaContext>,
    info: DeviceInfo,
    /// The kernel time limit every wait on this GPU observes.
    watchdog: Arc<Watchdog>,
}

impl Gpu {
    /// Loads the driver and opens device `ordinal`.
    ///
    /// No driver, no device or a wrong index give a typed error, never a panic.
    pub fn open(ordinal: CudaOrdinal) -> Result<Self> {
        let ctx = Self::open_context(ordinal)?;
        let stream = ctx.new_stream().during("cuStreamCreate")?;
        let info = DeviceInfo::query(&ctx)?;
        Ok(Self {
            stream,
            ctx,
            info,
            watchdog: Arc::new(Watchdog::default()),
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

    fn open_context(CudaOrdinal(ordinal): CudaOrdinal) -> Result<Arc<CudaContext>> {
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

    /// Blocks for one full wave of `kernel` at `block_threads` (SMs × resident blocks per SM).
    pub fn full_wave_blocks(&self, kernel: &Kernel, block_threads: u32) -> Result<u32> {
        let per_sm = kernel.max_active_blocks_per_sm(block_threads, 0)?.max(1) as u32;
        Ok(per_sm * self.info.multiprocessors.max(1) as u32)
    }

    /// Waits for all work on the suite's stream, at most the kernel time limit
    /// ([`Error::KernelTimeout`] past it); surfaces asynchronous launch errors.
    pub fn synchronize(&self) -> Result<()> {
        self.watchdog
            .wait_for_stream(&self.stream, "the work queued on the GPU")
    }

    /// Waits for the work recorded in `event`, at most the kernel time limit.
    pub fn wait_for_event(&self, event: &CudaEvent, what: &str) -> Result<()> {
        self.watchdog.wait_for_event(event, what)
    }

    /// The time limit, kernel launched last and overrun state shared by this GPU's waits.
    pub fn watchdog(&self) -> &Arc<Watchdog> {
        &self.watchdog
    }

    /// The longest any wait on this GPU may take (`--kernel-timeout`).
    pub fn kernel_timeout(&self) -> Duration {
        self.watchdog.limit()
    }

    /// Sets the kernel time limit.
    pub fn set_kernel_timeout(&self, limit: Duration) {
        self.watchdog.set_limit(limit);
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
