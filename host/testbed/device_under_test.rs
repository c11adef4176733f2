use std::sync::OnceLock;

use kernels_gpu::device::{KernelArgs, KernelSignature, Signature};

use super::{Implementation, ImplementationSet, OpenClSide, compile_twins};
use crate::error::{Error, Result};
use crate::facts::CudaOrdinal;
use crate::gpu::{CublasHandle, DeviceInfo, Gpu, Kernel, LaunchShape, Module, TypedKernel};
use crate::ptx::{KERNELS_PTX, check_twin, with_launch_bounds};

/// One GPU under test with the suite's code loaded on it: the Rust PTX, the
/// CUDA C twins (or why not), and cuBLAS on first use (or why not).
///
/// Launchers take a `&DeviceUnderTest` and an [`Implementation`] and find
/// their kernel here; the [`Gpu`] underneath is a pure driver handle.
pub struct DeviceUnderTest {
    // Field order is drop order: modules and the cuBLAS handle go before the context.
    rust: Module,
    /// The CUDA C twins, or why they are not measured.
    cuda_c: std::result::Result<Module, String>,
    cublas: OnceLock<std::result::Result<CublasHandle, String>>,
    /// The OpenCL C twins on the OpenCL device that is this GPU, or why not.
    opencl: std::result::Result<OpenClSide, String>,
    selected: ImplementationSet,
    gpu: Gpu,
}

impl DeviceUnderTest {
    /// Opens device `ordinal` and loads the implementations in `selected`
    /// (the Rust PTX is always loaded: launchers of every experiment need it).
    pub fn open(ordinal: CudaOrdinal, selected: &ImplementationSet) -> Result<Self> {
        let gpu = Gpu::open(ordinal)?;
        let rust = Module::load(&gpu, &with_launch_bounds(KERNELS_PTX, gpu.info().architecture()))?;
        let cuda_c = if selected.contains(Implementation::CudaC) {
            compile_twins()
                .and_then(|ptx| {
                    Module::load(&gpu, &with_launch_bounds(&ptx, gpu.info().architecture()))
                        .map_err(|e| format!("the CUDA C twins did not load: {e}"))
                })
                .and_then(|twins| check_twin_params(&rust, twins))
        } else {
            Err("CUDA C twins not selected (--impl)".into())
        };
        let opencl = if selected.contains(Implementation::OpenClC) {
            OpenClSide::open(gpu.info())
        } else {
            Err("OpenCL C twins not selected (--impl)".into())
        };
        Ok(Self {
            rust,
            cuda_c,
            cublas: OnceLock::new(),
            opencl,
            selected: selected.clone(),
            gpu,
        })
    }

    /// A device running `ptx` as its Rust module and nothing else (tests use a broken one).
    pub fn with_ptx(ordinal: CudaOrdinal, ptx: &str) -> Result<Self> {
        let gpu = Gpu::open(ordinal)?;
        let rust = Module::load(&gpu, &with_launch_bounds(ptx, gpu.info().architecture()))?;
        Ok(Self {
            rust,
            cuda_c: Err("CUDA C twins not loaded for this module".into()),
            cublas: OnceLock::new(),
            opencl: Err("OpenCL C twins not loaded for this module".into()),
            selected: ImplementationSet::parse("rust")?,
            gpu,
        })
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    pub fn info(&self) -> &DeviceInfo {
        self.gpu.info()
    }

    /// The implementations the run selected (`--impl`).
    pub fn selected(&self) -> &ImplementationSet {
        &self.selected
    }

    /// The PTX module of a kernel-twin implementation, or why it is not there.
    pub fn module(&self, implementation: Implementation) -> std::result::Result<&Module, String> {
        match implementation {
            Implementation::Rust => Ok(&self.rust),
            Implementation::CudaC => self.cuda_c.as_ref().map_err(Clone::clone),
            other => Err(format!("{} kernels are not loaded as a CUDA module", other.label())),
        }
    }

    /// A kernel by name from the Rust module or the CUDA C twins.
    pub fn kernel(&self, implementation: Implementation, name: &str) -> Result<&Kernel> {
        self.module(implementation).map_err(Error::Waived)?.kernel(name)
    }

    /// The kernel `signature` names, from the Rust module or the CUDA C twins,
    /// its `.param` list checked against the signature: what launchers launch.
    /// `S::SIGNATURE` for kernel marker `S`.
    pub fn typed_kernel<A: KernelArgs>(
        &self,
        implementation: Implementation,
        signature: Signature<A>,
    ) -> Result<TypedKernel<'_, A>> {
        self.module(implementation).map_err(Error::Waived)?.typed(signature)
    }

    /// Launches kernel `S` of `implementation` on this device's stream.
    ///
    /// # Safety
    /// Every access the kernel makes with `args` at `shape` stays inside live
    /// allocations (the launcher's bounds checks).
    pub unsafe fn launch<S: KernelSignature>(
        &self,
        implementation: Implementation,
        shape: LaunchShape,
        args: S::Args,
    ) -> Result<()> {
        // SAFETY: forwarded contract.
        unsafe { self.launch_signature(implementation, S::SIGNATURE, shape, args) }
    }

    /// Launches the kernel `signature` names (one of several with the same
    /// parameters, picked at run time) on this device's stream.
    ///
    /// # Safety
    /// As [`launch`](Self::launch).
    pub unsafe fn launch_signature<A: KernelArgs>(
        &self,
        implementation: Implementation,
        signature: Signature<A>,
        shape: LaunchShape,
        args: A,
    ) -> Result<()> {
        let kernel = self.typed_kernel(implementation, signature)?;
        // SAFETY: forwarded contract.
        unsafe { kernel.launch(self.gpu.stream(), shape, args) }
    }

    /// The implementations whose PTX kernels this device runs (Rust, and the
    /// CUDA C twins when compiled and selected), and a reason for each left out.
    pub fn ptx_implementations(&self) -> (Vec<Implementation>, Vec<String>) {
        let mut running = vec![Implementation::Rust];
        let mut waived = Vec::new();
        match &self.cuda_c {
            Ok(_) => running.push(Implementation::CudaC),
            Err(why) if self.selected.contains(Implementation::CudaC) => waived.push(why.clone()),
            Err(_) => {}
        }
        (running, waived)
    }

    /// cuBLAS on this device's stream, created on first use; `Err` says why not.
    pub fn cublas(&self) -> std::result::Result<&CublasHandle, String> {
        if !self.selected.contains(Implementation::Cublas) {
            return Err("cuBLAS not selected (--impl)".into());
        }
        self.cublas
            .get_or_init(|| CublasHandle::new(&self.gpu).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The OpenCL side of this GPU (context, queue, OpenCL C twins), or why there is none.
    pub fn opencl(&self) -> std::result::Result<&OpenClSide, String> {
        self.opencl.as_ref().map_err(Clone::clone)
    }

    /// The OpenCL side, or (with its reason) `None` when OpenCL was selected
    /// but is not available here; `None` without a reason when not selected.
    pub fn opencl_or_waiver(&self) -> (Option<&OpenClSide>, Option<String>) {
        match &self.opencl {
            Ok(side) => (Some(side), None),
            Err(why) if self.selected.contains(Implementation::OpenClC) => (None, Some(why.clone())),
            Err(_) => (None, None),
        }
    }

    /// Whether the copy engines' series are measured (`--impl`).
    pub fn copy_engine_selected(&self) -> bool {
        self.selected.contains(Implementation::CopyEngine)
    }

    /// Blocks for one full wave of `kernel` at `block_threads` (SMs × resident blocks per SM).
    pub fn full_wave_blocks(&self, kernel: &Kernel, block_threads: u32) -> Result<u32> {
        self.gpu.full_wave_blocks(kernel, block_threads)
    }
}

/// The twins, if each entry that shares a name with a Rust kernel declares the
/// same `.param` list (count, sizes, float or bits); else why not, naming the
/// kernel and the parameter.
fn check_twin_params(rust: &Module, twins: Module) -> std::result::Result<Module, String> {
    for twin in twins.kernels() {
        let Ok(rust_kernel) = rust.kernel(twin.name()) else {
            continue;
        };
        check_twin(rust_kernel.params(), twin.params()).map_err(|reason| {
            format!(
                "the CUDA C twin {} does not take its Rust kernel's parameters: {reason}",
                twin.name()
            )
        })?;
    }
    Ok(twins)
}
