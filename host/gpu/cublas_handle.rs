use std::sync::Arc;

use cudarc::cublas::sys;
use cudarc::driver::CudaContext;

use super::{DeviceBuffer, Gpu, Watchdog};
use crate::error::{Error, Result};

/// A cuBLAS handle bound to the GPU's stream, destroyed on drop. cuBLAS is
/// loaded at run time; where it is missing, [`CublasHandle::new`] says so.
///
/// The calls are `unsafe`, as cudarc's `result` layer: they trust the shapes.
/// `launchers::cublas` checks every shape against the buffers first.
pub struct CublasHandle {
    handle: sys::cublasHandle_t,
    ctx: Arc<CudaContext>,
    watchdog: Arc<Watchdog>,
}

fn check(status: sys::cublasStatus_t, call: &str) -> Result<()> {
    if status == sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(Error::Library(format!("{call} failed: {status:?}")))
    }
}

impl CublasHandle {
    /// Creates a handle on the suite's stream; `Err` says why cuBLAS is unavailable.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        // SAFETY: only tries to dlopen libcublas.
        if !unsafe { sys::is_culib_present() } {
            return Err(Error::Library(
                "cuBLAS (libcublas) not found: cuBLAS baselines skipped; add the CUDA toolkit's lib64 to LD_LIBRARY_PATH"
                    .into(),
            ));
        }
        gpu.context()
            .bind_to_thread()
            .map_err(|e| Error::Library(format!("cuCtxSetCurrent failed: {e}")))?;
        let mut handle: sys::cublasHandle_t = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer.
        check(unsafe { sys::cublasCreate_v2(&mut handle) }, "cublasCreate")?;
        let created = Self {
            handle,
            ctx: gpu.context().clone(),
            watchdog: gpu.watchdog().clone(),
        };
        // SAFETY: both handles are live; the stream outlives the handle (owned by the Gpu).
        check(
            unsafe { sys::cublasSetStream_v2(created.handle, gpu.stream().cu_stream() as sys::cudaStream_t) },
            "cublasSetStream",
        )?;
        // FP32 baselines: the default math mode runs SGEMM in FP32 on the CUDA cores (TF32 tensor cores only
        // with CUBLAS_TF32_TENSOR_OP_MATH, which the suite never sets).
        // SAFETY: the handle is live.
        check(
            unsafe { sys::cublasSetMathMode(created.handle, sys::cublasMath_t::CUBLAS_DEFAULT_MATH) },
            "cublasSetMathMode",
        )?;
        Ok(created)
    }

    /// `w = m · v` for a row-major `height × width` matrix (cuBLAS sees its
    /// column-major transpose, so this is `cublasSgemv` with `CUBLAS_OP_T`).
    ///
    /// # Safety
    /// `m` must hold `width × height` floats, `v` `width` and `w` `height`, each dimension below 2^31.
    pub unsafe fn sgemv_row_major(
        &self,
        m: &DeviceBuffer<f32>,
        width: u32,
        height: u32,
        v: &DeviceBuffer<f32>,
        w: &mut DeviceBuffer<f32>,
    ) -> Result<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: the caller's contract; all pointers are device memory of this context.
        check(
            unsafe {
                sys::cublasSgemv_v2(
                    self.handle,
                    sys::cublasOperation_t::CUBLAS_OP_T,
                    width as i32,
                    height as i32,
                    &alpha,
                    m.device_ptr() as *const f32,
                    width as i32,
                    v.device_ptr() as *const f32,
                    1,
                    &beta,
                    w.device_ptr() as *mut f32,
                    1,
                )
            },
            "cublasSgemv",
        )
    }
}

impl CublasHandle {
    /// `C = A · B` for row-major `A` (`m × k`), `B` (`k × n`), `C` (`m × n`).
    /// cuBLAS is column-major, so this computes `Cᵀ = Bᵀ · Aᵀ` with the
    /// operands swapped, which is the same memory.
    ///
    /// # Safety
    /// `a`, `b`, `c` must hold `m·k`, `k·n`, `m·n` floats, each below 2^31.
    pub unsafe fn sgemm_row_major(
        &self,
        a: &DeviceBuffer<f32>,
        b: &DeviceBuffer<f32>,
        c: &mut DeviceBuffer<f32>,
        (m, n, k): (u32, u32, u32),
    ) -> Result<()> {
        let (m, n, k) = (m as i32, n as i32, k as i32); // the caller's contract: each < 2^31
        let no = sys::cublasOperation_t::CUBLAS_OP_N;
        // SAFETY: the caller's contract.
        unsafe { self.sgemm_column_major((no, no), (n, m, k), (b, n), (a, k), (c, n)) }
    }

    /// `C = A · Aᵀ` for row-major `A` (`m × k`) and `C` (`m × m`): in
    /// cuBLAS's column-major view `A` is `Aᵀ` (`k × m`), so this is
    /// `cublasSgemm(T, N)` of that with itself.
    ///
    /// # Safety
    /// `a` must hold `m·k` and `c` `m·m` floats, each below 2^31.
    pub unsafe fn sgemm_aat_row_major(
        &self,
        a: &DeviceBuffer<f32>,
        c: &mut DeviceBuffer<f32>,
        (m, k): (u32, u32),
    ) -> Result<()> {
        let (m, k) = (m as i32, k as i32); // the caller's contract: each < 2^31
        let ops = (sys::cublasOperation_t::CUBLAS_OP_T, sys::cublasOperation_t::CUBLAS_OP_N);
        // SAFETY: the caller's contract.
        unsafe { self.sgemm_column_major(ops, (m, m, k), (a, k), (a, k), (c, m)) }
    }

    /// `cublasSgemm` with α = 1, β = 0 on `(buffer, leading dimension)` operands.
    ///
    /// # Safety
    /// The column-major shapes must fit the buffers (the callers check them).
    unsafe fn sgemm_column_major(
        &self,
        (transa, transb): (sys::cublasOperation_t, sys::cublasOperation_t),
        (m, n, k): (i32, i32, i32),
        (a, lda): (&DeviceBuffer<f32>, i32),
        (b, ldb): (&DeviceBuffer<f32>, i32),
        (c, ldc): (&mut DeviceBuffer<f32>, i32),
    ) -> Result<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: forwarded contract; all pointers are device memory of this handle's context.
        check(
            unsafe {
                sys::cublasSgemm_v2(
                    self.handle,
                    transa,
                    transb,
                    m,
                    n,
                    k,
                    &alpha,
                    a.device_ptr() as *const f32,
                    lda,
                    b.device_ptr() as *const f32,
                    ldb,
                    &beta,
                    c.device_ptr() as *mut f32,
                    ldc,
                )
            },
            "cublasSgemm",
        )
    }

    /// As [`sgemm_row_major`](Self::sgemm_row_major) with `A` and `B` stored
    /// as IEEE binary16 bits and `C` in `f32`: `cublasGemmEx` with
    /// `CUBLAS_COMPUTE_32F_PEDANTIC` (FP32 arithmetic, no tensor cores), the
    /// peer of the suite's f16-storage kernel. `Err` when this cuBLAS has no such kernel.
    ///
    /// # Safety
    /// As [`sgemm_row_major`](Self::sgemm_row_major).
    pub unsafe fn gemm_f16_storage_row_major(
        &self,
        a: &DeviceBuffer<half::f16>,
        b: &DeviceBuffer<half::f16>,
        c: &mut DeviceBuffer<f32>,
        (m, n, k): (u32, u32, u32),
    ) -> Result<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (m, n, k) = (m as i32, n as i32, k as i32); // the caller's contract: each < 2^31
        let half = sys::cudaDataType_t::CUDA_R_16F;
        // SAFETY: the caller's contract; alpha/beta are f32 as the 32F compute type requires.
        check(
            unsafe {
                sys::cublasGemmEx(
                    self.handle,
                    sys::cublasOperation_t::CUBLAS_OP_N,
                    sys::cublasOperation_t::CUBLAS_OP_N,
                    n,
                    m,
                    k,
                    (&raw const alpha).cast(),
                    b.device_ptr() as *const std::ffi::c_void,
                    half,
                    n,
                    a.device_ptr() as *const std::ffi::c_void,
                    half,
                    k,
                    (&raw const beta).cast(),
                    c.device_ptr() as *mut std::ffi::c_void,
                    sys::cudaDataType_t::CUDA_R_32F,
                    n,
                    sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_PEDANTIC,
                    sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
                )
            },
            "cublasGemmEx(f16 in, f32 out, 32F pedantic)",
        )
    }
}

impl Drop for CublasHandle {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed destroy only leaks the handle.
        // Past a time-out cublasDestroy would wait for the running kernel: leak instead.
        if !self.watchdog.overrun() && self.ctx.bind_to_thread().is_ok() {
            // SAFETY: the handle was created by this struct and is destroyed once.
            let _ = unsafe { sys::cublasDestroy_v2(self.handle) };
        }
    }
}
