//! cuBLAS, the vendor baseline, launched with the same shape checks as the
//! suite's own kernels (the handle in `gpu/` trusts its caller).

use half::f16;

use super::{check_gemm_buffers, check_matvec_buffers};
use crate::error::{Error, Result};
use crate::gpu::{CublasHandle, DeviceBuffer};

/// `w = m · v` for a row-major `height × width` matrix (cublasSgemv).
pub fn cublas_sgemv(
    cublas: &CublasHandle,
    m: &DeviceBuffer<f32>,
    (width, height): (u32, u32),
    v: &DeviceBuffer<f32>,
    w: &mut DeviceBuffer<f32>,
) -> Result<()> {
    check_matvec_buffers("cublasSgemv", width, height, (m.len(), v.len(), w.len()))?;
    if i32::try_from(width).is_err() || i32::try_from(height).is_err() {
        return Err(Error::InvalidInput(format!(
            "cublasSgemv takes int dimensions; {height} x {width} is too large"
        )));
    }
    // SAFETY: the shape was checked against the buffers and int dimensions above.
    unsafe { cublas.sgemv_row_major(m, width, height, v, w) }
}

/// `C = A · B`, row-major (cublasSgemm).
pub fn cublas_sgemm(
    cublas: &CublasHandle,
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    c: &mut DeviceBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    check_gemm_buffers("cublasSgemm", dims, (a.len(), b.len(), c.len()))?;
    // SAFETY: check_gemm_buffers proved the buffers hold the operands and every dimension is below 2^31.
    unsafe { cublas.sgemm_row_major(a, b, c, dims) }
}

/// `C = A · Aᵀ`, row-major (cublasSgemm with OP_T).
pub fn cublas_sgemm_aat(
    cublas: &CublasHandle,
    a: &DeviceBuffer<f32>,
    c: &mut DeviceBuffer<f32>,
    (m, k): (u32, u32),
) -> Result<()> {
    check_gemm_buffers("cublasSgemm (A·Aᵀ)", (m, m, k), (a.len(), a.len(), c.len()))?;
    // SAFETY: as above, for an m × k A and an m × m C.
    unsafe { cublas.sgemm_aat_row_major(a, c, (m, k)) }
}

/// `C = A · B` with `A`, `B` stored as f16 and FP32 arithmetic (cublasGemmEx, 32F pedantic).
pub fn cublas_gemm_f16_storage(
    cublas: &CublasHandle,
    a: &DeviceBuffer<f16>,
    b: &DeviceBuffer<f16>,
    c: &mut DeviceBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    check_gemm_buffers("cublasGemmEx", dims, (a.len(), b.len(), c.len()))?;
    // SAFETY: as in cublas_sgemm.
    unsafe { cublas.gemm_f16_storage_row_major(a, b, c, dims) }
}
