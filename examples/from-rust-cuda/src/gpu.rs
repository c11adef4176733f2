//! GPU 0 through cudarc, the CUDA driver loaded at run time. Every launch
//! passes its arguments as `cust::launch!` would: a slice as its device
//! pointer followed by its length (`usize`), Rust-CUDA's kernel ABI.

use std::fmt;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaStream, DriverError, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

use crate::shape::{LaunchShape, ShapeError, sum_shape, transpose_shape, vecadd_shape};
use crate::{KERNELS, KERNELS_PTX};

/// Threads per block of `warp_sum` (any multiple of 32 works; 256 matches `block_sum`).
pub const WARP_SUM_THREADS: u32 = 256;

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
        during: String,
        /// The driver's error.
        error: DriverError,
    },
    /// The launch shape was refused before launching.
    Shape(ShapeError),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver => write!(
                f,
                "no NVIDIA driver found (libcuda could not be loaded): the GPU run needs an NVIDIA GPU and its \
                 driver (`cargo test` runs the kernels in the CPU emulator instead)"
            ),
            GpuError::NoDevice => write!(f, "the NVIDIA driver found no CUDA GPU"),
            GpuError::Driver { during, error } => write!(f, "{during}: {error:?}"),
            GpuError::Shape(error) => write!(f, "launch refused: {error}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<ShapeError> for GpuError {
    fn from(error: ShapeError) -> Self {
        GpuError::Shape(error)
    }
}

fn during(call: impl Into<String>) -> impl FnOnce(DriverError) -> GpuError {
    let during = call.into();
    move |error| GpuError::Driver { during, error }
}

fn config(shape: LaunchShape) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (shape.grid.0, shape.grid.1, 1),
        block_dim: (shape.block.0, shape.block.1, 1),
        shared_mem_bytes: 0,
    }
}

/// GPU 0 with the kernels' module loaded.
pub struct Gpu {
    name: String,
    stream: Arc<CudaStream>,
    functions: Vec<CudaFunction>,
}

impl Gpu {
    /// Loads the driver, opens GPU 0 and JIT-compiles the PTX. No driver is an error, not a panic.
    pub fn open() -> Result<Self, GpuError> {
        // SAFETY: only tries to dlopen libcuda.
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
        let functions = KERNELS
            .iter()
            .map(|kernel| {
                module
                    .load_function(kernel)
                    .map_err(during(format!("finding {kernel}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            name,
            stream: ctx.default_stream(),
            functions,
        })
    }

    /// The GPU's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `a + b` by `vecadd`: arguments (a, a.len(), b, b.len(), c), as `cust::launch!` takes them.
    pub fn vecadd(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>, GpuError> {
        let shape = vecadd_shape(a.len(), b.len(), a.len())?;
        let a_gpu = self.stream.clone_htod(a).map_err(during("copying a"))?;
        let b_gpu = self.stream.clone_htod(b).map_err(during("copying b"))?;
        let mut c_gpu = self
            .stream
            .alloc_zeros::<f32>(a.len())
            .map_err(during("allocating c"))?;
        let (a_len, b_len) = (a.len(), b.len());
        let mut launch = self.stream.launch_builder(&self.functions[0]);
        launch.arg(&a_gpu).arg(&a_len).arg(&b_gpu).arg(&b_len).arg(&mut c_gpu);
        // SAFETY: each slice is passed as (pointer, length) of its whole buffer, c holds a.len()
        // elements, and the kernel writes only below a.len().
        unsafe { launch.launch(config(shape)) }.map_err(during("launching vecadd"))?;
        self.stream.clone_dtoh(&c_gpu).map_err(during("copying c back"))
    }

    /// The per-block sums of `x` by `block_sum` (`warp_shuffles = false`) or `warp_sum`.
    pub fn block_sums(&self, x: &[f32], warp_shuffles: bool) -> Result<Vec<f32>, GpuError> {
        let (function, block) = if warp_shuffles {
            (&self.functions[2], WARP_SUM_THREADS)
        } else {
            (&self.functions[1], 256)
        };
        let shape = sum_shape(x.len(), block)?;
        let x_gpu = self.stream.clone_htod(x).map_err(during("copying x"))?;
        let mut partial = self
            .stream
            .alloc_zeros::<f32>(shape.grid.0 as usize)
            .map_err(during("allocating the partial sums"))?;
        let x_len = x.len();
        let mut launch = self.stream.launch_builder(function);
        launch.arg(&x_gpu).arg(&x_len).arg(&mut partial);
        // SAFETY: x as (pointer, length); partial holds gridDim.x elements; blocks of the kernel's size.
        unsafe { launch.launch(config(shape)) }.map_err(during("launching the block sums"))?;
        self.stream
            .clone_dtoh(&partial)
            .map_err(during("copying the partial sums back"))
    }

    /// The transpose of the `height × width` matrix `input` by `transpose` (a 2-D launch).
    pub fn transpose(&self, input: &[f32], width: usize, height: usize) -> Result<Vec<f32>, GpuError> {
        let shape = transpose_shape(width, height, input.len())?;
        let in_gpu = self.stream.clone_htod(input).map_err(during("copying the matrix"))?;
        let mut out = self
            .stream
            .alloc_zeros::<f32>(input.len())
            .map_err(during("allocating the transpose"))?;
        let in_len = input.len();
        let mut launch = self.stream.launch_builder(&self.functions[3]);
        launch.arg(&in_gpu).arg(&in_len).arg(&mut out).arg(&width).arg(&height);
        // SAFETY: input as (pointer, length) with width · height elements; out holds as many.
        unsafe { launch.launch(config(shape)) }.map_err(during("launching transpose"))?;
        self.stream
            .clone_dtoh(&out)
            .map_err(during("copying the transpose back"))
    }
}
