//! cuBLAS's product as the reference every element of a general multiply is
//! compared with, and the scale of its error bound per element.

use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::launchers::cublas_sgemm;
use crate::testbed::DeviceUnderTest;

/// `(C, |A|·|B|)` for row-major `A` (`m × k`) and `B` (`k × n`) on the
/// host: cuBLAS's product and, per element, Σ|a·b| (the scale of γ_k, the
/// bound both cuBLAS's and a kernel's result lie within of the exact product).
/// `None` where this device has no cuBLAS.
pub fn cublas_reference(
    dut: &DeviceUnderTest,
    (a_host, b_host): (&[f32], &[f32]),
    dims: (u32, u32, u32),
) -> Result<Option<(Vec<f32>, Vec<f32>)>> {
    let Ok(cublas) = dut.cublas() else {
        return Ok(None);
    };
    let gpu = dut.gpu();
    let abs = |x: &[f32]| x.iter().map(|v| v.abs()).collect::<Vec<f32>>();
    let mut c = DeviceBuffer::<f32>::uninit(gpu, dims.0 as usize * dims.1 as usize)?;
    let (a, b) = (
        DeviceBuffer::from_host(gpu, a_host)?,
        DeviceBuffer::from_host(gpu, b_host)?,
    );
    cublas_sgemm(cublas, &a, &b, &mut c, dims)?;
    let product = c.to_host()?;
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &abs(a_host))?,
        DeviceBuffer::from_host(gpu, &abs(b_host))?,
    );
    cublas_sgemm(cublas, &a, &b, &mut c, dims)?;
    gpu.synchronize()?;
    Ok(Some((product, c.to_host()?)))
}
