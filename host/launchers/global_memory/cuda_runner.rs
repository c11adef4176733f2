use std::any::Any;

use super::{
    CopyKernel, CopyRunner, driver_copy, offset_copy, permuted_copy, shift_copy, stride_copy, texture_shift_copy,
    vector_copy,
};
use crate::copy_element::{CopyElement, pattern};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, TextureObject};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The copy family on one CUDA device: the Rust PTX, the CUDA C twins and
/// the copy engine, on one pair of device buffers.
pub struct CudaCopyRunner<'a, T: CopyElement> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    idata: DeviceBuffer<T>,
    odata: DeviceBuffer<T>,
    timer: CudaTimer<'a>,
}

impl<'a, T: CopyElement + 'static> CudaCopyRunner<'a, T> {
    /// Buffers of `len` elements on `dut`, the input holding `pattern`, for `implementations`.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>, len: usize) -> Result<Self> {
        dut.gpu().ensure_free_memory(2 * (len * size_of::<T>()) as u64)?;
        Ok(Self {
            dut,
            implementations,
            idata: DeviceBuffer::from_host(dut.gpu(), &pattern::<T>(len))?,
            odata: DeviceBuffer::uninit(dut.gpu(), len)?,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }

    pub fn input(&self) -> &DeviceBuffer<T> {
        &self.idata
    }
}

/// The input as `f32`, for the texture path (`f32` only).
fn as_f32<T: crate::gpu::DeviceCopy + 'static>(buffer: &DeviceBuffer<T>) -> Result<&DeviceBuffer<f32>> {
    (buffer as &dyn Any)
        .downcast_ref::<DeviceBuffer<f32>>()
        .ok_or_else(|| Error::InvalidInput("texture_shift_copy reads f32 texels only".into()))
}

/// One launch of `kernel` from `implementation` (the texture, if any, made by the caller).
fn enqueue<T: CopyElement + 'static>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    (kernel, threads, param): (CopyKernel, u64, i32),
    odata: &mut DeviceBuffer<T>,
    idata: &DeviceBuffer<T>,
    texture: Option<&TextureObject<'_>>,
) -> Result<()> {
    if !kernel.runs_on(implementation) {
        return Err(Error::InvalidInput(format!(
            "{kernel:?} does not run on {}",
            implementation.label()
        )));
    }
    match kernel {
        CopyKernel::Offset => offset_copy(dut, implementation, odata, idata, threads, param),
        CopyKernel::Stride => stride_copy(dut, implementation, odata, idata, threads, param),
        CopyKernel::Shift => shift_copy(dut, implementation, as_f32_mut(odata)?, as_f32(idata)?, threads, param),
        CopyKernel::Permuted => permuted_copy(dut, implementation, as_f32_mut(odata)?, as_f32(idata)?, threads, param),
        CopyKernel::TextureShift => {
            let texture = texture.ok_or_else(|| Error::InvalidInput("texture_shift_copy needs a texture".into()))?;
            texture_shift_copy(dut, implementation, as_f32_mut(odata)?, texture, threads, param)
        }
        CopyKernel::Vector => vector_copy(dut, implementation, as_f32_mut(odata)?, as_f32(idata)?, threads),
        CopyKernel::DriverCopy => driver_copy(odata, idata, threads),
    }
}

fn as_f32_mut<T: crate::gpu::DeviceCopy + 'static>(buffer: &mut DeviceBuffer<T>) -> Result<&mut DeviceBuffer<f32>> {
    (buffer as &mut dyn Any)
        .downcast_mut::<DeviceBuffer<f32>>()
        .ok_or_else(|| Error::InvalidInput("this copy kernel moves f32 only".into()))
}

impl<T: CopyElement + 'static> CopyRunner<T> for CudaCopyRunner<'_, T> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn buffer_len(&self) -> usize {
        self.idata.len()
    }

    fn fill_output(&mut self, value: T) -> Result<()> {
        self.odata.fill(value)
    }

    fn launch(&mut self, implementation: Implementation, kernel: CopyKernel, threads: u64, param: i32) -> Result<()> {
        let texture = match kernel {
            CopyKernel::TextureShift => Some(TextureObject::over(self.dut.gpu(), as_f32(&self.idata)?)?),
            _ => None,
        };
        let work = (kernel, threads, param);
        enqueue(
            self.dut,
            implementation,
            work,
            &mut self.odata,
            &self.idata,
            texture.as_ref(),
        )?;
        self.dut.gpu().synchronize()
    }

    fn time(
        &mut self,
        implementation: Implementation,
        kernel: CopyKernel,
        threads: u64,
        param: i32,
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let Self {
            dut,
            idata,
            odata,
            timer,
            ..
        } = self;
        let texture = match kernel {
            CopyKernel::TextureShift => Some(TextureObject::over(dut.gpu(), as_f32(idata)?)?),
            _ => None,
        };
        let work = (kernel, threads, param);
        time_per_launch(timer, settings, &mut || {
            enqueue(dut, implementation, work, odata, idata, texture.as_ref())
        })
    }

    fn read_output(&mut self, out: &mut [T]) -> Result<()> {
        self.odata.copy_to_host(out)
    }
}
