use super::{LoopCounter, LoopCounterRunner, StridedLoop, loop_counter};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, timed_launches};

/// The loop-counter kernels on one CUDA device: the Rust kernels and their
/// CUDA C twins, on one input and one output buffer, timed by CUDA events.
pub struct CudaLoopCounterRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    copy: StridedLoop,
    inp: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaLoopCounterRunner<'a> {
    /// `implementations`' kernels running `copy` from `input` (copied to the
    /// device) into an output of `out_len` elements.
    pub fn new(
        dut: &'a DeviceUnderTest,
        implementations: Vec<Implementation>,
        copy: StridedLoop,
        input: &[f32],
        out_len: usize,
    ) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            copy,
            inp: DeviceBuffer::from_host(dut.gpu(), input)?,
            out: DeviceBuffer::uninit(dut.gpu(), out_len)?,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

/// One launch of `copy` with `counter`'s kernel by `implementation` (the launcher checks the shape).
fn enqueue(
    dut: &DeviceUnderTest,
    (implementation, counter): (Implementation, LoopCounter),
    copy: &StridedLoop,
    out: &mut DeviceBuffer<f32>,
    inp: &DeviceBuffer<f32>,
) -> Result<()> {
    let StridedLoop {
        blocks,
        n,
        offset,
        stride,
    } = *copy;
    loop_counter(dut, implementation, counter, out, inp, blocks, (n, offset, stride))
}

impl LoopCounterRunner for CudaLoopCounterRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn clear_output(&mut self) -> Result<()> {
        self.out.fill(f32::NAN)
    }

    fn launch(&mut self, implementation: Implementation, counter: LoopCounter) -> Result<()> {
        let Self {
            dut, copy, inp, out, ..
        } = self;
        enqueue(dut, (implementation, counter), copy, out, inp)
    }

    fn time(
        &mut self,
        implementation: Implementation,
        counter: LoopCounter,
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let Self {
            dut,
            copy,
            inp,
            out,
            timer,
            ..
        } = self;
        timed_launches(timer, settings, &mut || {
            enqueue(dut, (implementation, counter), copy, out, inp)
        })
    }

    fn read_output(&self) -> Result<Vec<f32>> {
        self.out.to_host()
    }
}
