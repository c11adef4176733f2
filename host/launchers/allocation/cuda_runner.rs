use std::time::Instant;

use super::{AllocationCase, AllocationRunner, CaseReadBack};
use crate::error::Result;
use crate::gpu::{DeviceAllocation, DeviceBuffer, Gpu, MemoryPool};
use crate::launchers::vector_copy_global;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{SampleTimer, timed_launches};

/// The cases on one CUDA device: `cuMemAlloc`/`cuMemFree` on the context
/// bound to the calling thread, the device's default pool (its release
/// threshold at the maximum until dropped), the kept buffer, and the Rust
/// `vector_copy` over one element, all on the suite's stream.
pub struct CudaAllocationRunner<'a> {
    dut: &'a DeviceUnderTest,
    pool: MemoryPool,
    kept: DeviceAllocation,
    launch_in: DeviceBuffer<f32>,
    launch_out: DeviceBuffer<f32>,
}

impl<'a> CudaAllocationRunner<'a> {
    /// Room for the kept buffer of `largest` bytes, one allocation being timed and the pool's copy of it.
    pub fn new(dut: &'a DeviceUnderTest, largest: u64) -> Result<Self> {
        let gpu = dut.gpu();
        gpu.ensure_free_memory(3 * largest)?;
        let pool = MemoryPool::default_for(gpu, u64::MAX)?;
        DeviceAllocation::bind(gpu)?;
        let kept = DeviceAllocation::new(gpu, largest as usize)?;
        Ok(Self {
            dut,
            pool,
            kept,
            launch_in: DeviceBuffer::from_host(gpu, &[1.0f32])?,
            launch_out: DeviceBuffer::<f32>::uninit(gpu, 1)?,
        })
    }
}

/// The host clock around a sample, which ends by waiting for the suite's
/// stream: the blocking calls' time and the stream-ordered calls' work alike.
struct HostClockWaited<'a>(&'a Gpu);

impl SampleTimer for HostClockWaited<'_> {
    fn time_ms(&mut self, enqueue: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
        let start = Instant::now();
        enqueue()?;
        self.0.synchronize()?;
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    fn finish(&mut self) -> Result<()> {
        self.0.synchronize()
    }
}

/// One launch of the suite's copy kernel over one element.
fn launch_once(dut: &DeviceUnderTest, out: &mut DeviceBuffer<f32>, inp: &DeviceBuffer<f32>) -> Result<()> {
    let (out_len, in_len) = (out.len(), inp.len());
    vector_copy_global(
        dut,
        Implementation::Rust,
        (out.as_global_mut(), out_len),
        (inp.as_global(), in_len),
        1,
    )
}

impl AllocationRunner for CudaAllocationRunner<'_> {
    fn prove(&mut self, case: AllocationCase, bytes: u64, value: u32) -> Result<CaseReadBack> {
        let (gpu, size) = (self.dut.gpu(), bytes as usize);
        Ok(match case {
            AllocationCase::AllocFree => {
                DeviceAllocation::bind(gpu)?;
                CaseReadBack::LastWord(DeviceAllocation::new(gpu, size)?.round_trip_last_word(value)?)
            }
            AllocationCase::PooledAllocFree => {
                CaseReadBack::LastWord(self.pool.allocate(size)?.round_trip_last_word(value)?)
            }
            AllocationCase::Reuse => CaseReadBack::LastWord(self.kept.round_trip_last_word(value)?),
            AllocationCase::LaunchAndWait => {
                self.launch_out.fill(0.0)?;
                launch_once(self.dut, &mut self.launch_out, &self.launch_in)?;
                CaseReadBack::CopiedElement(self.launch_out.to_host()?[0])
            }
        })
    }

    fn odd_sizes(&mut self, sizes: &[(u64, u32)]) -> Result<Vec<(u64, u32)>> {
        let gpu = self.dut.gpu();
        DeviceAllocation::bind(gpu)?;
        let allocations = sizes
            .iter()
            .map(|&(bytes, _)| DeviceAllocation::new(gpu, bytes as usize))
            .collect::<Result<Vec<_>>>()?;
        allocations
            .iter()
            .zip(sizes)
            .map(|(allocation, &(_, value))| Ok((allocation.address(), allocation.round_trip_last_word(value)?)))
            .collect()
    }

    fn time(&mut self, case: AllocationCase, bytes: u64, value: u32, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            pool,
            kept,
            launch_in,
            launch_out,
        } = self;
        let (gpu, size) = (dut.gpu(), bytes as usize);
        let mut enqueue = || -> Result<()> {
            match case {
                AllocationCase::AllocFree => drop(DeviceAllocation::new(gpu, size)?),
                AllocationCase::PooledAllocFree => drop(pool.allocate(size)?),
                AllocationCase::Reuse => {
                    kept.round_trip_last_word(value)?;
                }
                AllocationCase::LaunchAndWait => {
                    launch_once(dut, launch_out, launch_in)?;
                    gpu.synchronize()?;
                }
            }
            Ok(())
        };
        if case == AllocationCase::AllocFree {
            DeviceAllocation::bind(gpu)?;
        }
        timed_launches(&mut HostClockWaited(gpu), settings, &mut enqueue)
    }

    fn pool_reserved_bytes(&self) -> Result<u64> {
        self.pool.reserved_bytes()
    }
}
