use super::CudaLatencyRunner;
use crate::error::Result;
use crate::launchers::TimedLaunches;
use crate::launchers::twin_waivers::cuda_twins_plan;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One programming model's side of the latency family on one GPU: one ring
/// at a time (a ring of addresses in device memory for `pointer_chase`, or
/// of slot indices that `shared_pointer_chase` copies into shared memory),
/// an output of `LATENCY_OUT_WORDS` words for every launch of a timing run
/// (where the chain ended, then the SM cycles and the nanoseconds of its
/// timed steps), and its own clock.
pub trait LatencyRunner {
    /// The implementations whose kernels it launches.
    fn implementations(&self) -> &[Implementation];
    /// The device memory free now, in bytes (what bounds the largest ring).
    fn free_memory(&self) -> Result<u64>;
    /// Frees the last ring, then lays out in device memory the ring whose
    /// slot `i` links to slot `successors[i]`, slots of `slot_bytes` bytes
    /// (a positive multiple of 8); the links are checked.
    fn load_pointer_ring(&mut self, successors: &[u32], slot_bytes: u64) -> Result<()>;
    /// The device address of the loaded pointer ring's slot `slot`: what the
    /// first output word of a chase that ends there holds.
    fn slot_address(&self, slot: u64) -> Result<u64>;
    /// One untimed `pointer_chase` over the loaded pointer ring from slot
    /// `start`: `steps` steps, then one more (its single timed step).
    fn prime(&mut self, implementation: Implementation, start: u64, steps: u32) -> Result<()>;
    /// Writes twice the L2's bytes (4 MiB at least), so that no line of the
    /// ring is left in it.
    fn flush_l2(&mut self) -> Result<()>;
    /// A timing run of `pointer_chase` over the loaded pointer ring
    /// ([`time_per_launch`](crate::timing::time_per_launch), every launch's
    /// output kept): each launch from the slot `start` gives it then,
    /// `steps.0` untimed steps (warm-up) and `steps.1` timed ones.
    fn time_pointer_chase(
        &mut self,
        implementation: Implementation,
        start: &mut dyn FnMut() -> u64,
        steps: (u32, u32),
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>>;
    /// Frees the last ring, then copies `links` (checked) to the device: the
    /// ring `shared_pointer_chase` chases in shared memory.
    fn load_slot_ring(&mut self, links: &[u32]) -> Result<()>;
    /// A timing run of `shared_pointer_chase` over the loaded slot ring from
    /// slot `start` (`steps`: untimed, then timed), every launch's output kept.
    fn time_shared_chase(
        &mut self,
        implementation: Implementation,
        start: u32,
        steps: (u32, u32),
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>>;
    /// A timing run of `fma_latency` from `(x, multiplier, addend)`, `trips`
    /// trips of its loop, every launch's output kept.
    fn time_fma_chain(
        &mut self,
        implementation: Implementation,
        args: (f32, f32, f32),
        trips: u32,
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (the PTX implementations') and, for each
/// selected set of twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn latency_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn LatencyRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, waived) = cuda_twins_plan(dut.ptx_implementations());
    let runner = CudaLatencyRunner::new(dut, implementations)?;
    Ok((vec![Box::new(runner)], waived))
}
