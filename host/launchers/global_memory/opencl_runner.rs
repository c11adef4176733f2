use std::any::Any;

use super::opencl::{offset_copy, permuted_copy, shift_copy, stride_copy, texture_shift_copy, vector_copy};
use super::{CopyKernel, CopyRunner};
use crate::copy_element::{CopyElement, pattern};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, Image1dBuffer};
use crate::run_settings::RunSettings;
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The copy family's OpenCL C twins on the OpenCL device that is the GPU
/// under test, on a pair of OpenCL buffers of their own.
pub struct OpenClCopyRunner<'a, T: CopyElement> {
    side: &'a OpenClSide,
    idata: ClBuffer<T>,
    odata: ClBuffer<T>,
    /// Work-groups that fill the GPU once (the CUDA side's figure for the Rust kernel), for `vector_copy`.
    wave_groups: u32,
}

impl<'a, T: CopyElement + 'static> OpenClCopyRunner<'a, T> {
    pub fn new(side: &'a OpenClSide, len: usize, wave_groups: u32) -> Result<Self> {
        let (context, queue) = (side.context(), side.queue());
        Ok(Self {
            side,
            idata: ClBuffer::from_host(context, queue, &pattern::<T>(len))?,
            odata: ClBuffer::new(context, len)?,
            wave_groups,
        })
    }
}

fn as_f32<T: crate::gpu::DeviceCopy + 'static>(buffer: &ClBuffer<T>) -> Result<&ClBuffer<f32>> {
    (buffer as &dyn Any)
        .downcast_ref::<ClBuffer<f32>>()
        .ok_or_else(|| Error::InvalidInput("this copy kernel moves f32 only".into()))
}

fn as_f32_mut<T: crate::gpu::DeviceCopy + 'static>(buffer: &mut ClBuffer<T>) -> Result<&mut ClBuffer<f32>> {
    (buffer as &mut dyn Any)
        .downcast_mut::<ClBuffer<f32>>()
        .ok_or_else(|| Error::InvalidInput("this copy kernel moves f32 only".into()))
}

/// One launch of `kernel` (the image for the texture path made by the caller).
fn enqueue<T: CopyElement + 'static>(
    side: &OpenClSide,
    (kernel, threads, param, wave_groups): (CopyKernel, u64, i32, u32),
    odata: &mut ClBuffer<T>,
    idata: &ClBuffer<T>,
    image: Option<&Image1dBuffer<'_>>,
) -> Result<()> {
    let (twins, queue) = (side.twins(), side.queue());
    match kernel {
        CopyKernel::Offset => offset_copy(twins, queue, odata, idata, threads, param),
        CopyKernel::Stride => stride_copy(twins, queue, odata, idata, threads, param),
        CopyKernel::Shift => shift_copy(twins, queue, as_f32_mut(odata)?, as_f32(idata)?, threads, param),
        CopyKernel::Permuted => permuted_copy(twins, queue, as_f32_mut(odata)?, as_f32(idata)?, threads, param),
        CopyKernel::TextureShift => {
            let image = image.ok_or_else(|| Error::InvalidInput("texture_shift_copy needs an image".into()))?;
            texture_shift_copy(twins, queue, as_f32_mut(odata)?, image, threads, param)
        }
        CopyKernel::Vector => vector_copy(twins, queue, as_f32_mut(odata)?, as_f32(idata)?, threads, wave_groups),
        CopyKernel::DriverCopy => Err(Error::InvalidInput("the copy engine is not an OpenCL kernel".into())),
    }
}

impl<T: CopyElement + 'static> CopyRunner<T> for OpenClCopyRunner<'_, T> {
    fn implementations(&self) -> &[Implementation] {
        &[Implementation::OpenClC]
    }

    fn buffer_len(&self) -> usize {
        self.idata.len()
    }

    fn fill_output(&mut self, value: T) -> Result<()> {
        Ok(self.odata.fill(self.side.queue(), value)?)
    }

    fn launch(&mut self, _: Implementation, kernel: CopyKernel, threads: u64, param: i32) -> Result<()> {
        let image = match kernel {
            CopyKernel::TextureShift => Some(Image1dBuffer::new(self.side.context(), as_f32(&self.idata)?)?),
            _ => None,
        };
        let work = (kernel, threads, param, self.wave_groups);
        enqueue(self.side, work, &mut self.odata, &self.idata, image.as_ref())?;
        Ok(self.side.queue().finish()?)
    }

    fn time(
        &mut self,
        _: Implementation,
        kernel: CopyKernel,
        threads: u64,
        param: i32,
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let Self {
            side,
            idata,
            odata,
            wave_groups,
        } = self;
        let image = match kernel {
            CopyKernel::TextureShift => Some(Image1dBuffer::new(side.context(), as_f32(idata)?)?),
            _ => None,
        };
        let work = (kernel, threads, param, *wave_groups);
        time_per_launch(&mut OpenClTimer(side.queue()), settings, &mut || {
            enqueue(side, work, odata, idata, image.as_ref())
        })
    }

    fn read_output(&mut self, out: &mut [T]) -> Result<()> {
        Ok(self.odata.read(self.side.queue(), 0, out)?)
    }
}
