//! The example on a GPU: the CUDA driver through `cudarc`, loaded at run time.

use std::fmt;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DriverError};
use cudarc::nvrtc::Ptx;
use ptx_device::{GlobalMutPtr, GlobalPtr, KernelArgs, KernelSignature};
use saxpy_kernels::{block_sum_params, saxpy_params};

use crate::KERNELS_PTX;
use crate::shape::{LaunchShape, ShapeError, block_sum_shape, saxpy_shape};

/// Threads per block of both kernels.
pub const BLOCK: u32 = 256;

/// Why the GPU run could not happen or failed.
#[derive(Debug)]
pub enum GpuError {
    /// libcuda could not be loaded: no NVIDIA driver here.
    NoDriver,
    /// The driver is there but sees no GPU.
    NoDevice,
    /// A driver call failed.
    Driver {
        /// What was being done.
        during: &'static str,
        /// The driver's error.
        error: DriverError,
    },
    /// The launch shape was refused before launching.
    Shape(ShapeError),
    /// `x` and `y` differ in length.
    Lengths {
        /// `x`'s length.
        x: usize,
        /// `y`'s length.
        y: usize,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver => write!(
                f,
                "no NVIDIA driver found (libcuda could not be loaded): the GPU run needs an NVIDIA GPU and its driver \
                 (`cargo test` runs the kernels in the CPU emulator instead)"
            ),
            GpuError::NoDevice => write!(f, "the NVIDIA driver found no CUDA GPU"),
            GpuError::Driver { during, error } => write!(f, "{during}: {error:?}"),
            GpuError::Shape(error) => write!(f, "launch refused: {error}"),
            GpuError::Lengths { x, y } => write!(f, "x has {x} elements and y {y}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<ShapeError> for GpuError {
    fn from(error: ShapeError) -> Self {
        GpuError::Shape(error)
    }
}

/// Wraps a driver error with what was being done.
fn during(call: &'static str) -> impl FnOnce(DriverError) -> GpuError {
    move |error| GpuError::Driver { during: call, error }
}

/// Enqueues kernel `S` (its function `function`) on `stream` at `shape`: `args`
/// is the kernel's parameter tuple (`S::Args`), so the compiler checks each
/// argument's type and position against the kernel's signature.
///
/// # Safety
/// Every access the kernel makes with `args` at `shape` stays inside live allocations.
unsafe fn launch<S: KernelSignature>(
    stream: &CudaStream,
    function: &CudaFunction,
    shape: LaunchShape,
    mut args: S::Args,
) -> Result<(), GpuError> {
    stream
        .context()
        .bind_to_thread()
        .map_err(during("binding the context"))?;
    args.with_param_pointers(|params| {
        // SAFETY: `params` points at S's parameters in order, alive for the call; bounds are the caller's.
        unsafe {
            cudarc::driver::result::launch_kernel(
                function.cu_function(),
                (shape.grid, 1, 1),
                (shape.block, 1, 1),
                shape.shared_bytes,
                stream.cu_stream(),
                params,
            )
        }
    })
    .map_err(during(S::NAME))
}

/// `slice`'s device address as a kernel's read-only pointer, for as long as the guard lives.
fn global<'a, T: Copy>(slice: &'a CudaSlice<T>, stream: &'a CudaStream) -> (GlobalPtr<T>, impl Drop + 'a) {
    let (address, guard) = slice.device_ptr(stream);
    (GlobalPtr::from_raw(address as usize as *const T), guard)
}

/// `slice`'s device address as a kernel's writable pointer, for as long as the guard lives.
fn global_mut<'a, T: Copy>(slice: &'a mut CudaSlice<T>, stream: &'a CudaStream) -> (GlobalMutPtr<T>, impl Drop + 'a) {
    let (address, guard) = slice.device_ptr_mut(stream);
    (GlobalMutPtr::from_raw(address as usize as *mut T), guard)
}

/// GPU 0 with the example's module loaded.
pub struct Gpu {
    name: String,
    stream: Arc<CudaStream>,
    saxpy: CudaFunction,
    block_sum: CudaFunction,
}

impl Gpu {
    /// Loads the driver, opens GPU 0 and loads the embedded PTX (which the
    /// driver JIT-compiles for it). No driver is an error, never a panic.
    pub fn open() -> Result<Self, GpuError> {
        // SAFETY: only tries to dlopen libcuda; no CUDA call is made.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(GpuError::NoDriver);
        }
        let ctx = CudaContext::new(0).map_err(|error| match error.0 {
            cudarc::driver::sys::CUresult::CUDA_ERROR_NO_DEVICE => GpuError::NoDevice,
            _ => during("opening GPU 0")(error),
        })?;
        let name = ctx.name().map_err(during("cuDeviceGetName"))?;
        let module = ctx
            .load_module(Ptx::from_src(KERNELS_PTX))
            .map_err(during("loading the PTX (cuModuleLoadData)"))?;
        Ok(Self {
            name,
            stream: ctx.default_stream(),
            saxpy: module
                .load_function(saxpy_params::NAME)
                .map_err(during("finding saxpy"))?,
            block_sum: module
                .load_function(block_sum_params::NAME)
                .map_err(during("finding block_sum"))?,
        })
    }

    /// The GPU's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `a · x + y` computed by the `saxpy` kernel.
    pub fn saxpy(&self, a: f32, x: &[f32], y: &[f32]) -> Result<Vec<f32>, GpuError> {
        if x.len() != y.len() {
            return Err(GpuError::Lengths { x: x.len(), y: y.len() });
        }
        let shape = saxpy_shape(x.len(), BLOCK)?;
        let n = x.len() as u32; // saxpy_shape proved it fits
        let x_gpu = self.stream.clone_htod(x).map_err(during("copying x to the GPU"))?;
        let mut y_gpu = self.stream.clone_htod(y).map_err(during("copying y to the GPU"))?;
        {
            let (x, _x_in_use) = global(&x_gpu, &self.stream);
            let (y, _y_in_use) = global_mut(&mut y_gpu, &self.stream);
            // SAFETY: both buffers hold n elements and saxpy_shape proved grid · block fits u32; the
            // kernel touches indices below n only.
            unsafe { launch::<saxpy_params>(&self.stream, &self.saxpy, shape, (y, x, a, n))? };
        }
        self.stream.clone_dtoh(&y_gpu).map_err(during("copying y back"))
    }

    /// The sum of each `BLOCK`-element slice of `x`, by the `block_sum` kernel.
    pub fn block_sums(&self, x: &[f32]) -> Result<Vec<f32>, GpuError> {
        let shape = block_sum_shape(x.len(), BLOCK)?;
        let n = x.len() as u32; // block_sum_shape proved it fits
        let x_gpu = self.stream.clone_htod(x).map_err(during("copying x to the GPU"))?;
        let mut partial = self
            .stream
            .alloc_zeros::<f32>(shape.grid as usize)
            .map_err(during("allocating the partial sums"))?;
        {
            let (x, _x_in_use) = global(&x_gpu, &self.stream);
            let (sums, _sums_in_use) = global_mut(&mut partial, &self.stream);
            // SAFETY: x holds n elements, partial gridDim.x; block_sum_shape gave a power-of-two block,
            // its 4 · block bytes of shared memory and a grid whose indices fit u32.
            unsafe { launch::<block_sum_params>(&self.stream, &self.block_sum, shape, (sums, x, n))? };
        }
        self.stream
            .clone_dtoh(&partial)
            .map_err(during("copying the partial sums back"))
    }
}
