use kernels_gpu::block_span::BLOCK_SPAN_WORDS;

use super::{
    CONSTANT_CHASE_TABLE_WORDS, ChaseCase, ChaseRunner, ChaseTable, ChaseTiming, ConstantSpace, chase_shared_bytes,
    constant_chase,
};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::launchers::{LaunchOutputs, held_timer};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::CudaTimer;

/// The constant-memory chases on one CUDA device: the Rust kernels and their
/// CUDA C twins, on one table, one span buffer per launch and one sum per thread.
pub struct CudaChaseRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    /// The table, each launch's spans and the sums, once prepared.
    buffers: Option<(ChaseTable, LaunchOutputs<u64>, DeviceBuffer<u32>)>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaChaseRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            buffers: None,
            timer: held_timer(dut)?,
        })
    }
}

fn not_prepared() -> Error {
    Error::InvalidInput("no chase table uploaded".into())
}

impl ChaseRunner for CudaChaseRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn records_spans(&self) -> bool {
        true
    }

    fn blocks_per_sm(&self, implementation: Implementation, space: ConstantSpace, block_threads: u32) -> Result<u32> {
        let shared = chase_shared_bytes(space, CONSTANT_CHASE_TABLE_WORDS) as usize;
        let kernel = self.dut.kernel(implementation, space.kernel())?;
        Ok(kernel.max_active_blocks_per_sm(block_threads, shared)?.max(1) as u32)
    }

    fn prepare(&mut self, links: &[u32], (max_threads, max_blocks): (u32, u32), settings: &RunSettings) -> Result<()> {
        self.buffers = None; // free the last table's buffers first
        let gpu = self.dut.gpu();
        let table = ChaseTable::upload(gpu, links)?;
        let spans = LaunchOutputs::<u64>::for_settings(gpu, settings, BLOCK_SPAN_WORDS * max_blocks as usize)?;
        let sums = DeviceBuffer::<u32>::uninit(gpu, max_threads as usize)?;
        self.buffers = Some((table, spans, sums));
        Ok(())
    }

    fn fill_sums(&mut self, value: u32) -> Result<()> {
        self.buffers.as_mut().ok_or_else(not_prepared)?.2.fill(value)
    }

    fn time(
        &mut self,
        implementation: Implementation,
        case: &ChaseCase,
        settings: &RunSettings,
    ) -> Result<ChaseTiming> {
        let Self {
            dut, buffers, timer, ..
        } = self;
        let (table, outputs, sums) = buffers.as_mut().ok_or_else(not_prepared)?;
        let timed = outputs.time(timer, settings, &mut |spans| {
            constant_chase(
                dut,
                implementation,
                case.space,
                table,
                case.distinct,
                case.steps,
                (case.block_threads, case.blocks),
                spans,
                sums,
            )
        })?;
        Ok(ChaseTiming::Clocked(timed))
    }

    fn read_sums(&mut self) -> Result<Vec<u32>> {
        self.buffers.as_ref().ok_or_else(not_prepared)?.2.to_host()
    }
}
