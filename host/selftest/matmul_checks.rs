//! Self-test checks of the matrix multiplies: every kernel and implementation
//! once on a small shape (edges included for the general kernels), against
//! the f64 CPU reference within γ_K·Σ|a·b|.

use half::f16;

use super::checks::{implementations, verified};
use crate::error::{Error, Result};
use crate::gpu::{CublasHandle, DeviceBuffer, Gpu};
use crate::launchers::{self, GuideMultiply, SgemmKernel};
use crate::reference;

fn values(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919 + salt * 31) % 201) as f32 / 100.0 - 1.0)
        .collect()
}

/// A reference product: `(C, Σ|a·b|)` and its shape `(m, n, k)`.
struct Expected {
    c: Vec<f32>,
    scale: Vec<f64>,
    dims: (usize, usize, usize),
}

impl Expected {
    fn of(a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Self {
        let (c, scale) = reference::matmul(a, b, m, k, n);
        Self {
            c,
            scale,
            dims: (m, n, k),
        }
    }

    /// Checks the first `m × n` elements of `c` (filled with NaN before the launch).
    fn check(&self, what: String, c: &DeviceBuffer<f32>) -> Result<()> {
        let (m, n, k) = self.dims;
        let got = c.to_host()?;
        verified(
            what,
            reference::matmul_mismatch(&got[..m * n], &self.c, &self.scale, k, n),
        )
    }
}

/// The guide's C = AB and C = AAᵀ kernels at M = 64, N = 96 (K = 32), Rust and CUDA C.
pub(super) fn guide_multiplies(gpu: &Gpu) -> Result<()> {
    let (m, n, k) = (64usize, 96usize, 32usize);
    let (a_host, b_host) = (values(m * k, 1), values(k * n, 2));
    let a_transposed: Vec<f32> = (0..k * m).map(|i| a_host[(i % m) * k + i / m]).collect();
    let ab = Expected::of(&a_host, &b_host, (m, n, k));
    let aat = Expected::of(&a_host, &a_transposed, (m, m, k));
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &a_host)?,
        DeviceBuffer::from_host(gpu, &b_host)?,
    );
    let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n.max(m))?;
    for kernel in GuideMultiply::ALL {
        for imp in implementations(gpu) {
            c.fill(f32::NAN)?;
            launchers::guide_multiply(gpu, imp, kernel, &a, &b, &mut c, m as u32, n as u32)?;
            let expected = if kernel.is_aat() { &aat } else { &ab };
            expected.check(format!("{} · {}", kernel.kernel(), imp.label()), &c)?;
        }
    }
    Ok(())
}

/// Shapes of the general kernels: edges in every dimension with unaligned rows, and exact tiles
/// (the whole-tile path) with an even and an odd number of k tiles.
const GEMM_SHAPES: [(usize, usize, usize); 3] = [(130, 127, 9), (128, 128, 32), (128, 256, 24)];

/// The tiled and register-blocked SGEMMs and the f16-storage variant, Rust and CUDA C.
pub(super) fn general_multiplies(gpu: &Gpu) -> Result<()> {
    for (m, n, k) in GEMM_SHAPES {
        let dims = (m as u32, n as u32, k as u32);
        let (a_host, b_host) = (values(m * k, 3), values(k * n, 4));
        let expected = Expected::of(&a_host, &b_host, (m, n, k));
        let (a, b) = (
            DeviceBuffer::from_host(gpu, &a_host)?,
            DeviceBuffer::from_host(gpu, &b_host)?,
        );
        let a16: Vec<f16> = a_host.iter().map(|&x| f16::from_f32(x)).collect();
        let b16: Vec<f16> = b_host.iter().map(|&x| f16::from_f32(x)).collect();
        let widen = |v: &[f16]| v.iter().map(|h| h.to_f32()).collect::<Vec<f32>>();
        let expected16 = Expected::of(&widen(&a16), &widen(&b16), (m, n, k));
        let (a16, b16) = (DeviceBuffer::from_host(gpu, &a16)?, DeviceBuffer::from_host(gpu, &b16)?);
        let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n)?;
        for imp in implementations(gpu) {
            for kernel in SgemmKernel::ALL {
                c.fill(f32::NAN)?;
                launchers::sgemm(gpu, imp, kernel, &a, &b, &mut c, dims)?;
                expected.check(format!("{} · {} {m}x{n}x{k}", kernel.kernel(), imp.label()), &c)?;
            }
            c.fill(f32::NAN)?;
            launchers::hgemm_f16_storage(gpu, imp, &a16, &b16, &mut c, dims)?;
            expected16.check(format!("hgemm_f16_storage · {} {m}x{n}x{k}", imp.label()), &c)?;
        }
    }
    Ok(())
}

/// cuBLAS SGEMM (A·B and A·Aᵀ) on the shapes the experiments use it for.
pub(super) fn cublas_sgemm(gpu: &Gpu) -> Result<()> {
    let cublas = CublasHandle::new(gpu).map_err(|e| Error::NotAvailable(e.to_string()))?;
    let (m, n, k) = GEMM_SHAPES[0];
    let (a_host, b_host) = (values(m * k, 5), values(k * n, 6));
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &a_host)?,
        DeviceBuffer::from_host(gpu, &b_host)?,
    );
    let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n.max(m))?;
    c.fill(f32::NAN)?;
    cublas.sgemm_row_major(&a, &b, &mut c, (m as u32, n as u32, k as u32))?;
    Expected::of(&a_host, &b_host, (m, n, k)).check(format!("cublasSgemm {m}x{n}x{k}"), &c)?;
    let a_transposed: Vec<f32> = (0..k * m).map(|i| a_host[(i % m) * k + i / m]).collect();
    c.fill(f32::NAN)?;
    cublas.sgemm_aat_row_major(&a, &mut c, (m as u32, k as u32))?;
    Expected::of(&a_host, &a_transposed, (m, m, k)).check(format!("cublasSgemm A·Aᵀ {m}x{k}"), &c)
}
