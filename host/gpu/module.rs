use std::ffi::{CString, c_void};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use cudarc::driver::{CudaContext, CudaStream, result, sys};
use kernels_gpu::device::{Dim3, KernelArgs};

use super::{DeviceBuffer, DeviceCopy, Gpu, Watchdog};
use crate::error::{DriverResultExt, Error, Result};
use crate::facts::KernelResources;
use crate::ptx;

const JIT_LOG_BYTES: usize = 16 * 1024;

/// A grid, block and dynamic shared memory size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_bytes: u32,
}

/// One kernel of a loaded module.
pub struct Kernel {
    name: Arc<str>,
    /// Its `.param` list as the PTX declares it, for the typed launch's check.
    params: Vec<ptx::PtxParam>,
    function: sys::CUfunction,
    resources: KernelResources,
    /// Dynamic shared memory the function has been allowed beyond the default 48 KiB.
    opted_in_shared_bytes: AtomicU32,
    /// Told of every launch, for the kernel time limit's message.
    watchdog: Arc<Watchdog>,
}

/// Dynamic shared memory every kernel may use without opting in.
const DEFAULT_DYNAMIC_SHARED_BYTES: u32 = 48 * 1024;

/// A PTX module loaded on a context, with all of its kernels looked up.
pub struct Module {
    kernels: Vec<Kernel>,
    module: sys::CUmodule,
    ctx: Arc<CudaContext>,
    jit_info_log: String,
    watchdog: Arc<Watchdog>,
}

fn log_text(buffer: &[u8]) -> String {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).trim().to_string()
}

impl Module {
    /// JIT-compiles `ptx` on `gpu` with info and error log buffers, so a
    /// rejected module reports ptxas's own message, and reads every kernel's
    /// resource use. The kernels report their launches to the GPU's
    /// watchdog, so a time-out names the kernel.
    pub fn load(gpu: &Gpu, ptx_text: &str) -> Result<Self> {
        Self::load_watched(gpu.context(), ptx_text, gpu.watchdog())
    }

    fn load_watched(ctx: &Arc<CudaContext>, ptx_text: &str, watchdog: &Arc<Watchdog>) -> Result<Self> {
        ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        let image = CString::new(ptx_text).map_err(|_| Error::InvalidInput("PTX text contains a NUL byte".into()))?;
        let mut info_log = vec![0u8; JIT_LOG_BYTES];
        let mut error_log = vec![0u8; JIT_LOG_BYTES];
        let mut options = [
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_LOG_VERBOSE,
        ];
        // Option values are passed as pointer-sized words, as the driver API specifies.
        let mut values: [*mut c_void; 5] = [
            info_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(JIT_LOG_BYTES),
            error_log.as_mut_ptr().cast(),
            std::ptr::without_provenance_mut(JIT_LOG_BYTES),
            std::ptr::without_provenance_mut(1),
        ];
        let mut module: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: image is NUL-terminated; the log buffers outlive the call and their sizes are passed.
        let status = unsafe {
            sys::cuModuleLoadDataEx(
                &mut module,
                image.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if let Err(source) = status.result() {
            return Err(Error::ModuleLoad {
                source,
                log: log_text(&error_log),
                hint: load_hint(source.0, ptx_text),
            });
        }
        let mut loaded = Self {
            kernels: Vec::new(),
            module,
            ctx: ctx.clone(),
            jit_info_log: log_text(&info_log),
            watchdog: watchdog.clone(),
        };
        for (name, params) in ptx::entry_param_lists(ptx_text) {
            let kernel = loaded.lookup(&name, params)?;
            loaded.kernels.push(kernel);
        }
        Ok(loaded)
    }

    fn lookup(&self, name: &str, params: Vec<ptx::PtxParam>) -> Result<Kernel> {
        let c_name = CString::new(name).map_err(|_| Error::MissingKernel(name.to_string()))?;
        // SAFETY: self.module is a live module of the current context.
        let function = unsafe { result::module::get_function(self.module, c_name) }
            .map_err(|_| Error::MissingKernel(name.to_string()))?;
        use sys::CUfunction_attribute::*;
        let attr = |a| {
            // SAFETY: function is a live function handle of this module.
            unsafe { result::function::get_function_attribute(function, a) }.during("cuFuncGetAttribute")
        };
        let resources = KernelResources {
            registers_per_thread: attr(CU_FUNC_ATTRIBUTE_NUM_REGS)?,
            local_bytes_per_thread: attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            static_shared_bytes: attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
            max_threads_per_block: attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            ptx_version: attr(CU_FUNC_ATTRIBUTE_PTX_VERSION)?,
            binary_version: attr(CU_FUNC_ATTRIBUTE_BINARY_VERSION)?,
        };
        Ok(Kernel {
            name: name.into(),
            params,
            function,
            resources,
            opted_in_shared_bytes: AtomicU32::new(DEFAULT_DYNAMIC_SHARED_BYTES),
            watchdog: self.watchdog.clone(),
        })
    }

    /// A kernel by name.
    pub fn kernel(&self, name: &str) -> Result<&Kernel> {
        self.kernels
            .iter()
            .find(|k| &*k.name == name)
            .ok_or_else(|| Error::MissingKernel(name.to_string()))
    }

    pub fn kernels(&self) -> &[Kernel] {
        &self.kernels
    }

    /// What the JIT compiler printed (ptxas's `-v` style resource lines).
    pub fn jit_info_log(&self) -> &str {
        &self.jit_info_log
    }

    /// The module's `.global` or `.const` variable `name` (a `__device__` or
    /// `__constant__` variable in CUDA C): its device address and size, from
    /// `cuModuleGetGlobal`. The variable lives as long as the module.
    pub fn global_symbol(&self, name: &str) -> Result<ModuleGlobal<'_>> {
        let c_name = CString::new(name).map_err(|_| Error::MissingSymbol(name.to_string()))?;
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        let (mut ptr, mut bytes) = (0, 0);
        // SAFETY: self.module is a live module of the bound context; the out-pointers are valid.
        unsafe { sys::cuModuleGetGlobal_v2(&mut ptr, &mut bytes, self.module, c_name.as_ptr()) }
            .result()
            .map_err(|source| match source.0 {
                sys::CUresult::CUDA_ERROR_NOT_FOUND => Error::MissingSymbol(name.to_string()),
                _ => Error::Driver {
                    call: "cuModuleGetGlobal",
                    source,
                },
            })?;
        Ok(ModuleGlobal {
            ptr,
            bytes,
            _module: PhantomData,
        })
    }
}

/// A variable of a loaded module (`.global` or `.const` state space), borrowed
/// from the [`Module`] so it cannot outlive it.
pub struct ModuleGlobal<'m> {
    ptr: sys::CUdeviceptr,
    bytes: usize,
    _module: PhantomData<&'m Module>,
}

impl ModuleGlobal<'_> {
    /// Its device address (a `__constant__` variable's address in the constant window).
    pub fn device_ptr(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Enqueues a copy of all of `src` into the variable's first bytes on
    /// `stream` (`cuMemcpyDtoDAsync`: how `cudaMemcpyToSymbol` fills a
    /// `__constant__` array), so kernels queued after it on `stream` read it.
    pub fn copy_from_device_async<T: DeviceCopy>(&self, src: &DeviceBuffer<T>, stream: &CudaStream) -> Result<()> {
        if src.bytes() > self.bytes {
            return Err(Error::InvalidInput(format!(
                "copy of {} bytes into a module variable of {} bytes",
                src.bytes(),
                self.bytes
            )));
        }
        // SAFETY: the source is a live allocation of src.bytes() bytes, the destination a live
        // module variable of at least that many; the copy is ordered on `stream`.
        unsafe { sys::cuMemcpyDtoDAsync_v2(self.ptr, src.device_ptr(), src.bytes(), stream.cu_stream()) }
            .result()
            .during("cuMemcpyDtoDAsync")
    }
}

/// A sentence saying what to do about a rejected module, where the code tells.
fn load_hint(code: sys::CUresult, ptx_text: &str) -> String {
    use sys::CUresult::*;
    let isa = ptx::isa_version(ptx_text).unwrap_or("?");
    let target = ptx::target(ptx_text).unwrap_or("?");
    match code {
        CUDA_ERROR_UNSUPPORTED_PTX_VERSION => match ptx::minimum_cuda_for_isa(isa) {
            Some(cuda) => format!(
                "\nThe PTX is ISA {isa}, which needs a driver of CUDA {cuda} or newer: update the NVIDIA driver, or rebuild with an older PTXSUITE_PTX_ARCH"
            ),
            None => format!("\nThe PTX is ISA {isa}, newer than this driver knows: update the NVIDIA driver"),
        },
        CUDA_ERROR_NO_BINARY_FOR_GPU | CUDA_ERROR_INVALID_PTX => format!(
            "\nThe PTX targets {target} (ISA {isa}); this GPU may be older than {target}: rebuild with PTXSUITE_PTX_ARCH set to this GPU's sm_XY"
        ),
        _ => String::new(),
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed unload only leaks the module.
        // Past a time-out the unload would wait for the running kernel: leak instead.
        if !self.watchdog.overrun() && self.ctx.bind_to_thread().is_ok() {
            // SAFETY: the module was loaded by this struct and no Kernel outlives it (they are owned here).
            let _ = unsafe { result::module::unload(self.module) };
        }
    }
}

impl Kernel {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn resources(&self) -> &KernelResources {
        &self.resources
    }

    /// Its `.param` list as the PTX declares it.
    pub fn params(&self) -> &[ptx::PtxParam] {
        &self.params
    }

    /// Blocks of `block_threads` threads that fit on one SM at once (`cuOccupancyMaxActiveBlocksPerMultiprocessor`).
    /// Dynamic shared memory past the default 48 KiB is opted in first (as a
    /// launch of that size would), so the figure is the one the launch gets.
    pub fn max_active_blocks_per_sm(&self, block_threads: u32, dynamic_shared_bytes: usize) -> Result<i32> {
        self.opt_in_dynamic_shared(u32::try_from(dynamic_shared_bytes).unwrap_or(u32::MAX))?;
        // SAFETY: the function handle is live while self (owned by its Module) is.
        unsafe {
            result::occupancy::max_active_block_per_multiprocessor(
                self.function,
                block_threads as i32,
                dynamic_shared_bytes,
            )
        }
        .during("cuOccupancyMaxActiveBlocksPerMultiprocessor")
    }

    /// Beyond 48 KiB of dynamic shared memory a kernel must opt in
    /// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`); the driver refuses more than the SM has.
    fn opt_in_dynamic_shared(&self, bytes: u32) -> Result<()> {
        if bytes > self.opted_in_shared_bytes.load(Ordering::Relaxed) {
            // SAFETY: the function handle is live while self is.
            unsafe {
                result::function::set_function_attribute(
                    self.function,
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    bytes.min(i32::MAX as u32) as i32,
                )
            }
            .during("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
            self.opted_in_shared_bytes.store(bytes, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Enqueues the kernel on `stream` with `args`, a tuple of the kernel's
    /// parameter types in order (a [`TypedKernel`](super::TypedKernel) proves
    /// they match the PTX entry; this is the one place they become the
    /// driver's array of pointers).
    ///
    /// # Safety
    /// `args` must match the kernel's PTX parameters, and every access the
    /// kernel makes with them at this shape must stay inside live
    /// allocations: the launchers in [`crate::launchers`] prove that before
    /// calling this.
    pub(super) unsafe fn launch_args<A: KernelArgs>(
        &self,
        stream: &CudaStream,
        shape: LaunchShape,
        mut args: A,
    ) -> Result<()> {
        // SAFETY: forwarded contract; the pointers live for the call.
        args.with_param_pointers(|params| unsafe { self.launch(stream, shape, params) })
    }

    /// Enqueues the kernel on `stream` with the driver's parameter array.
    ///
    /// # Safety
    /// As [`launch_args`](Self::launch_args), with `params` pointing at the arguments.
    unsafe fn launch(&self, stream: &CudaStream, shape: LaunchShape, params: &mut [*mut c_void]) -> Result<()> {
        if shape.block.count() > self.resources.max_threads_per_block as u64 {
            return Err(Error::InvalidLaunch {
                kernel: "kernel",
                reason: format!(
                    "{} has at most {} threads per block, {} requested",
                    self.name,
                    self.resources.max_threads_per_block,
                    shape.block.count()
                ),
            });
        }
        self.opt_in_dynamic_shared(shape.shared_bytes)?;
        self.watchdog.note_launch(&self.name);
        // SAFETY: forwarded contract; the function belongs to the stream's context.
        unsafe {
            result::launch_kernel(
                self.function,
                (shape.grid.x, shape.grid.y, shape.grid.z),
                (shape.block.x, shape.block.y, shape.block.z),
                shape.shared_bytes,
                stream.cu_stream(),
                params,
            )
        }
        .during("cuLaunchKernel")
    }
}
