use std::sync::Arc;

use cudarc::cublas::sys;
use cudarc::driver::CudaContext;

use super::{DeviceBuffer, Gpu, Watchdog};
use crate::error::{Error, Result};
use crate::launchers::check_matvec_buffers;

/// A cuBLAS handle bound to the suite's stream, destroyed on drop. cuBLAS is
/// loaded at run time; where it is missing, [`CublasHandle::new`] says so.
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
        Ok(created)
    }

    /// `w = m · v` for a row-major `height × width` matrix (cuBLAS sees its
    /// column-major transpose, so this is `cublasSgemv` with `CUBLAS_OP_T`).
    pub fn sgemv_row_major(
        &self,
        m: &DeviceBuffer<f32>,
        width: u32,
        height: u32,
        v: &DeviceBuffer<f32>,
        w: &mut DeviceBuffer<f32>,
    ) -> Result<()> {
        check_matvec_buffers("cublasSgemv", width, height, (m.len(), v.len(), w.len()))?;
        if i32::try_from(width).is_err() || i32::try_from(height).is_err() {
            return Err(Error::InvalidInput(format!(
                "cublasSgemv takes int dimensions; {height} x {width} is too large"
            )));
        }
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: the sizes were checked against the buffers above; all pointers are device memory of this context.
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
