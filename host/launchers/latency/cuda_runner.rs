use kernels_gpu::latency::LATENCY_OUT_WORDS;

use super::{LatencyRunner, SHARED_CHASE_BLOCK_THREADS, fma_latency, pointer_chase, shared_pointer_chase};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::launchers::{LaunchOutputs, PointerRing, SlotRing, TimedLaunches};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::CudaTimer;

/// The latency chains of the PTX implementations (Rust, and the CUDA C
/// twins) on one CUDA device: one ring at a time, an output buffer per
/// launch of a timing run, timed by CUDA events.
pub struct CudaLatencyRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    timer: CudaTimer<'a>,
    /// An output per launch of a timing run, made at the first (after the
    /// free memory is read, so they do not bound the rings).
    outputs: Option<LaunchOutputs<u64>>,
    /// The output of the untimed priming chases, made at the first.
    prime_out: Option<DeviceBuffer<u64>>,
    ring: Option<LoadedRing>,
    /// Twice the L2 of `u32`s, made at the first flush.
    flush: Option<DeviceBuffer<u32>>,
}

/// The ring a runner holds.
enum LoadedRing {
    /// Addresses, for `pointer_chase`.
    Pointers(PointerRing),
    /// Slot indices, for `shared_pointer_chase`.
    Slots(SlotRing),
}

impl<'a> CudaLatencyRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            timer: CudaTimer::new(dut.gpu())?,
            outputs: None,
            prime_out: None,
            ring: None,
            flush: None,
        })
    }

    fn pointer_ring(&self) -> Result<&PointerRing> {
        match &self.ring {
            Some(LoadedRing::Pointers(ring)) => Ok(ring),
            _ => Err(not_loaded("pointer")),
        }
    }
}

fn not_loaded(kind: &str) -> Error {
    Error::InvalidInput(format!("no {kind} ring loaded"))
}

/// The runner's outputs, made for `settings` at the first timing run.
fn outputs_for<'o>(
    outputs: &'o mut Option<LaunchOutputs<u64>>,
    dut: &DeviceUnderTest,
    settings: &RunSettings,
) -> Result<&'o mut LaunchOutputs<u64>> {
    if outputs.is_none() {
        *outputs = Some(LaunchOutputs::for_settings(dut.gpu(), settings, LATENCY_OUT_WORDS)?);
    }
    Ok(outputs.as_mut().expect("made above"))
}

/// `u32`s of the L2 flush on a GPU of `l2_bytes`: twice the L2's bytes, 4 MiB at least.
pub(super) fn flush_words(l2_bytes: i64) -> usize {
    ((l2_bytes.max(0) as u64 / 2).max(1 << 20)) as usize
}

impl LatencyRunner for CudaLatencyRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn free_memory(&self) -> Result<u64> {
        Ok(self.dut.gpu().memory_info()?.0 as u64)
    }

    fn load_pointer_ring(&mut self, successors: &[u32], slot_bytes: u64) -> Result<()> {
        self.ring = None; // free the last ring first
        self.ring = Some(LoadedRing::Pointers(PointerRing::upload(
            self.dut.gpu(),
            successors,
            slot_bytes,
        )?));
        Ok(())
    }

    fn slot_address(&self, slot: u64) -> Result<u64> {
        self.pointer_ring()?.slot_address(slot)
    }

    fn prime(&mut self, implementation: Implementation, start: u64, steps: u32) -> Result<()> {
        if self.prime_out.is_none() {
            self.prime_out = Some(DeviceBuffer::uninit(self.dut.gpu(), LATENCY_OUT_WORDS)?);
        }
        let Self {
            dut, prime_out, ring, ..
        } = self;
        let (Some(LoadedRing::Pointers(ring)), Some(out)) = (ring, prime_out) else {
            return Err(not_loaded("pointer"));
        };
        pointer_chase(dut, implementation, ring, start, (steps, 1), out)
    }

    fn flush_l2(&mut self) -> Result<()> {
        if self.flush.is_none() {
            let words = flush_words(self.dut.info().l2_cache_bytes);
            self.flush = Some(DeviceBuffer::uninit(self.dut.gpu(), words)?);
        }
        self.flush.as_mut().expect("made above").fill(0)
    }

    fn time_pointer_chase(
        &mut self,
        implementation: Implementation,
        start: &mut dyn FnMut() -> u64,
        steps: (u32, u32),
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>> {
        let Self {
            dut,
            timer,
            outputs,
            ring,
            ..
        } = self;
        let Some(LoadedRing::Pointers(ring)) = ring else {
            return Err(not_loaded("pointer"));
        };
        outputs_for(outputs, dut, settings)?.time(timer, settings, &mut |out| {
            pointer_chase(dut, implementation, ring, start(), steps, out)
        })
    }

    fn load_slot_ring(&mut self, links: &[u32]) -> Result<()> {
        self.ring = None; // free the last ring first
        self.ring = Some(LoadedRing::Slots(SlotRing::upload(self.dut.gpu(), links)?));
        Ok(())
    }

    fn time_shared_chase(
        &mut self,
        implementation: Implementation,
        start: u32,
        steps: (u32, u32),
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>> {
        let Self {
            dut,
            timer,
            outputs,
            ring,
            ..
        } = self;
        let Some(LoadedRing::Slots(ring)) = ring else {
            return Err(not_loaded("slot"));
        };
        outputs_for(outputs, dut, settings)?.time(timer, settings, &mut |out| {
            shared_pointer_chase(dut, implementation, ring, start, steps, SHARED_CHASE_BLOCK_THREADS, out)
        })
    }

    fn time_fma_chain(
        &mut self,
        implementation: Implementation,
        args: (f32, f32, f32),
        trips: u32,
        settings: &RunSettings,
    ) -> Result<TimedLaunches<u64>> {
        let Self {
            dut, timer, outputs, ..
        } = self;
        outputs_for(outputs, dut, settings)?.time(timer, settings, &mut |out| {
            fma_latency(dut, implementation, args, trips, out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::flush_words;

    #[test]
    fn the_flush_writes_twice_the_l2_and_4_mib_at_least() {
        assert_eq!(flush_words(50 << 20) * 4, 100 << 20, "an H100's 50 MiB L2");
        assert_eq!(flush_words(1 << 20) * 4, 4 << 20);
        assert_eq!(flush_words(0) * 4, 4 << 20);
        assert_eq!(flush_words(-1) * 4, 4 << 20, "an unknown L2");
    }
}
