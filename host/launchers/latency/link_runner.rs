use super::CudaLinkChaseRunner;
use crate::error::Result;
use crate::launchers::twin_waivers::cuda_twins_plan;
use crate::testbed::{DeviceUnderTest, Implementation};

/// Where a ring lies, seen from the GPU that chases it (the reader).
#[derive(Clone, Copy)]
pub enum RingMemory<'a> {
    /// The reader's own device memory.
    Own,
    /// This GPU's device memory, over the link between the two (readable
    /// once [`LinkChaseRunner::reach_peer`] said so).
    Peer(&'a DeviceUnderTest),
    /// Page-locked host memory mapped into the reader's address space, on
    /// the reader's NUMA node where the host has several.
    MappedHost,
}

/// One programming model's `pointer_chase` by any GPU of the node through
/// rings in memory it reaches over a link: its own, a peer GPU's, the host's.
pub trait LinkChaseRunner {
    /// The implementations whose kernels it launches.
    fn implementations(&self) -> &[Implementation];
    /// Whether `reader` can read `owner`'s memory; where it can, that access
    /// is enabled for as long as the runner lives.
    fn reach_peer(&mut self, reader: &DeviceUnderTest, owner: &DeviceUnderTest) -> Result<bool>;
    /// The ring whose slot `i` links to slot `successors[i]` (checked),
    /// slots of `slot_bytes` bytes (a positive multiple of 8), laid out in
    /// `memory` at the addresses `reader` sees, with an output for its chases
    /// (it borrows the runner: the peer access it may need lives there).
    fn place_ring<'r>(
        &'r self,
        reader: &'r DeviceUnderTest,
        memory: RingMemory<'_>,
        successors: &[u32],
        slot_bytes: u64,
    ) -> Result<Box<dyn ChaseRing + 'r>>;
}

/// A ring placed for one reader (its memory freed on drop).
pub trait ChaseRing {
    /// Its slots.
    fn slots(&self) -> u32;
    /// The address of slot `slot` as the reader sees it (`slot` below [`slots`](Self::slots)).
    fn slot_address(&self, slot: u32) -> u64;
    /// One `pointer_chase` by `implementation` from slot `slot` (checked):
    /// `warmup` untimed steps and `count` timed ones, waited for; the output
    /// words (the address where it ended, the SM cycles and the nanoseconds
    /// of the timed steps).
    fn chase(&mut self, implementation: Implementation, slot: u32, steps: (u32, u32)) -> Result<Vec<u64>>;
}

/// Every runner of the link chases on a node whose first GPU is `dut`: the
/// one place a programming model is added. Returns the runners (the PTX
/// implementations `dut` loaded) and, for each selected set of twins left
/// out, what and why.
#[allow(clippy::type_complexity)]
pub fn link_chase_runners(dut: &DeviceUnderTest) -> (Vec<Box<dyn LinkChaseRunner>>, Vec<(String, String)>) {
    let (implementations, waived) = cuda_twins_plan(dut.ptx_implementations());
    (vec![Box::new(CudaLinkChaseRunner::new(implementations))], waived)
}
