use std::sync::Arc;
use std::time::Duration;

use cudarc::driver::{CudaContext, CudaEvent, CudaStream, result, sys};

use super::{DeviceInfo, Implementation, Kernel, Module, Watchdog, compile_twins};
use crate::error::{DriverResultExt, Error, Result};
use crate::ptx::{KERNELS_PTX, with_launch_bounds};

/// One GPU, opened for the suite: its primary context, a non-blocking stream
/// for all work, its properties and the suite's PTX module loaded on it.
pub struct Gpu {
    // Field order is drop order: modules are unloaded before the context is released.
    module: Module,
    /// The CUDA C twins, or why they are not available.
    twins: std::result::Result<Module, String>,
    stream: Arc<CudaStream>,
    ctx: Arc<CudaContext>,
    info: DeviceInfo,
    /// The kernel time limit every wait on this GPU observes.
    watchdog: Arc<Watchdog>,
}

impl Gpu {
    /// Loads the driver, opens device `ordinal` and loads the embedded PTX.
    ///
    /// No driver, no device or a wrong index give a typed error, never a panic.
    pub fn open(ordinal: usize) -> Result<Self> {
        let mut gpu = Self::open_with_ptx(ordinal, KERNELS_PTX)?;
        gpu.twins = match compile_twins() {
            Ok(ptx) => Module::load_watched(
                &gpu.ctx,
                &with_launch_bounds(&ptx, gpu.info.architecture()),
                &gpu.watchdog,
            )
            .map_err(|e| format!("the CUDA C twins did not load: {e}")),
            Err(why) => Err(why),
        };
        Ok(gpu)
    }

    /// As [`open`](Self::open), with another PTX module (tests use a broken one).
    pub fn open_with_ptx(ordinal: usize, ptx: &str) -> Result<Self> {
        let ctx = Self::open_context(ordinal)?;
        let stream = ctx.new_stream().during("cuStreamCreate")?;
        let info = DeviceInfo::query(&ctx)?;
        let watchdog = Arc::new(Watchdog::default());
        let module = Module::load_watched(&ctx, &with_launch_bounds(ptx, info.architecture()), &watchdog)?;
        Ok(Self {
            module,
            twins: Err("CUDA C twins not loaded for this module".into()),
            stream,
            ctx,
            info,
            watchdog,
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

    /// The Rust kernel or its CUDA C twin.
    pub fn kernel_for(&self, implementation: Implementation, name: &str) -> Result<&Kernel> {
        match implementation {
            Implementation::Rust => self.module.kernel(name),
            Implementation::CudaC => match &self.twins {
                Ok(module) => module.kernel(name),
                Err(why) => Err(Error::InvalidInput(why.clone())),
            },
            Implementation::Driver | Implementation::Cublas | Implementation::Model => Err(Error::MissingKernel(
                format!("{name} ({} has no PTX kernels)", implementation.label()),
            )),
        }
    }

    /// The implementations of the suite's kernels a run can measure: Rust
    /// always, the CUDA C twins when NVRTC compiled them; the note says why not.
    pub fn kernel_implementations(&self) -> (Vec<Implementation>, Option<String>) {
        match &self.twins {
            Ok(_) => (vec![Implementation::Rust, Implementation::CudaC], None),
            Err(why) => (vec![Implementation::Rust], Some(why.clone())),
        }
    }

    /// Whether the CUDA C twins are loaded; `Err` says why not.
    pub fn twins(&self) -> std::result::Result<&Module, &str> {
        self.twins.as_ref().map_err(String::as_str)
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
