use super::opencl::opencl_sgemm;
use super::{GemmEntry, GemmOp, GemmRunner, SgemmKernel};
use crate::error::{Error, Result};
use crate::opencl::ClBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The OpenCL guide's §2.5 multiplies (untiled and tiled) as OpenCL C twins, on the OpenCL
/// device that is the GPU under test, with `A`, `B`, `C` of its own.
pub struct OpenClGemmRunner<'a> {
    side: &'a OpenClSide,
    operands: Option<(ClBuffer<f32>, ClBuffer<f32>, ClBuffer<f32>)>,
    dims: (u32, u32, u32),
}

impl<'a> OpenClGemmRunner<'a> {
    pub fn new(side: &'a OpenClSide) -> Self {
        Self {
            side,
            operands: None,
            dims: (0, 0, 0),
        }
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no operands loaded".into())
}

impl GemmRunner for OpenClGemmRunner<'_> {
    fn entries(&self) -> Vec<GemmEntry> {
        [SgemmKernel::Naive, SgemmKernel::Tiled]
            .map(|kernel| GemmEntry {
                implementation: Implementation::OpenClC,
                op: GemmOp::Sgemm(kernel),
                kernel: kernel.kernel(),
                element: "f32",
            })
            .to_vec()
    }

    fn load(&mut self, a: &[f32], b: &[f32], dims: (u32, u32, u32)) -> Result<()> {
        self.operands = None;
        let (context, queue) = (self.side.context(), self.side.queue());
        self.operands = Some((
            ClBuffer::from_host(context, queue, a)?,
            ClBuffer::from_host(context, queue, b)?,
            ClBuffer::new(context, dims.0 as usize * dims.1 as usize)?,
        ));
        self.dims = dims;
        Ok(())
    }

    fn fill_c(&mut self, value: f32) -> Result<()> {
        let queue = self.side.queue();
        Ok(self.operands.as_mut().ok_or_else(not_loaded)?.2.fill(queue, value)?)
    }

    fn time(&mut self, entry: &GemmEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let GemmOp::Sgemm(kernel @ (SgemmKernel::Naive | SgemmKernel::Tiled)) = entry.op else {
            return Err(Error::InvalidInput(format!("{} has no OpenCL C twin", entry.kernel)));
        };
        let (side, dims) = (self.side, self.dims);
        let (a, b, c) = self.operands.as_mut().ok_or_else(not_loaded)?;
        time_per_launch(&mut OpenClTimer(side.queue()), settings, &mut || {
            opencl_sgemm(side.twins(), side.queue(), kernel, (a, b, c), dims)
        })
    }

    fn read_c(&mut self, out: &mut [f32]) -> Result<()> {
        let queue = self.side.queue();
        Ok(self.operands.as_ref().ok_or_else(not_loaded)?.2.read(queue, 0, out)?)
    }
}
