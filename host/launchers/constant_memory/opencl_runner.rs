use super::opencl::{ClChaseTable, constant_chase};
use super::{CONSTANT_CHASE_TABLE_WORDS, ChaseCase, ChaseRunner, ChaseTiming, ConstantSpace, chase_shared_bytes};
use crate::error::{Error, Result};
use crate::opencl::ClBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The constant-memory chases' OpenCL C twins on the OpenCL device that is
/// the GPU under test, on a table and sums of their own.
pub struct OpenClChaseRunner<'a> {
    /// The CUDA side of the same GPU: the Rust kernels' occupancy gives the
    /// twins' grids (OpenCL reports none).
    dut: &'a DeviceUnderTest,
    side: &'a OpenClSide,
    buffers: Option<(ClChaseTable, ClBuffer<u32>)>,
}

impl<'a> OpenClChaseRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, side: &'a OpenClSide) -> Self {
        Self {
            dut,
            side,
            buffers: None,
        }
    }
}

fn not_prepared() -> Error {
    Error::InvalidInput("no chase table uploaded".into())
}

impl ChaseRunner for OpenClChaseRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &[Implementation::OpenClC]
    }

    fn records_spans(&self) -> bool {
        false
    }

    /// The Rust kernel's figure, so that the twins launch the same grid.
    fn blocks_per_sm(&self, _: Implementation, space: ConstantSpace, block_threads: u32) -> Result<u32> {
        let shared = chase_shared_bytes(space, CONSTANT_CHASE_TABLE_WORDS) as usize;
        let rust = self.dut.kernel(Implementation::Rust, space.kernel())?;
        Ok(rust.max_active_blocks_per_sm(block_threads, shared)?.max(1) as u32)
    }

    fn prepare(&mut self, links: &[u32], (max_threads, _): (u32, u32), _: &RunSettings) -> Result<()> {
        self.buffers = None; // free the last table's buffers first
        let (context, queue) = (self.side.context(), self.side.queue());
        self.buffers = Some((
            ClChaseTable::upload(context, queue, links)?,
            ClBuffer::new(context, max_threads as usize)?,
        ));
        Ok(())
    }

    fn fill_sums(&mut self, value: u32) -> Result<()> {
        let queue = self.side.queue();
        Ok(self.buffers.as_mut().ok_or_else(not_prepared)?.1.fill(queue, value)?)
    }

    fn time(&mut self, _: Implementation, case: &ChaseCase, settings: &RunSettings) -> Result<ChaseTiming> {
        let side = self.side;
        let (twins, queue) = (side.twins(), side.queue());
        let (table, sums) = self.buffers.as_mut().ok_or_else(not_prepared)?;
        let times_ms = time_per_launch(&mut OpenClTimer(queue), settings, &mut || {
            constant_chase(
                twins,
                queue,
                (case.space, table),
                (case.distinct, case.steps),
                (case.block_threads, case.blocks),
                sums,
            )
        })?;
        Ok(ChaseTiming::Events(times_ms))
    }

    fn read_sums(&mut self) -> Result<Vec<u32>> {
        let queue = self.side.queue();
        Ok(self.buffers.as_ref().ok_or_else(not_prepared)?.1.to_host(queue)?)
    }
}
