use kernels_gpu::device::GlobalPtr;
use kernels_gpu::latency::LATENCY_OUT_WORDS;

use super::{ChaseRing, LinkChaseRunner, RingMemory, pointer_chase_from};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, HostMemoryKind, PeerAccess, PeerAttributes, PinnedBuffer};
use crate::launchers::pointer_ring::ring_words;
use crate::launchers::pointer_ring_words;
use crate::numa::bind_near_gpu;
use crate::testbed::{DeviceUnderTest, Implementation};

/// The link chases of the PTX implementations (Rust, and the CUDA C twins)
/// on the node's CUDA devices, holding the peer access it enabled.
pub struct CudaLinkChaseRunner {
    implementations: Vec<Implementation>,
    /// Peer access enabled, by (reader, owner) CUDA ordinals.
    peers: Vec<((usize, usize), PeerAccess)>,
}

impl CudaLinkChaseRunner {
    pub fn new(implementations: Vec<Implementation>) -> Self {
        Self {
            implementations,
            peers: Vec::new(),
        }
    }

    fn reaches(&self, reader: &DeviceUnderTest, owner: &DeviceUnderTest) -> bool {
        let pair = (reader.info().ordinal.0, owner.info().ordinal.0);
        self.peers.iter().any(|(enabled, _)| *enabled == pair)
    }
}

/// The memory under a ring, kept alive while chased (the kernel reads it, never these handles).
enum RingAllocation {
    Device(#[allow(dead_code)] DeviceBuffer<u64>),
    Host(#[allow(dead_code)] PinnedBuffer<u64>),
}

/// A ring at the addresses its reader sees, with the reader's output.
struct CudaChaseRing<'r> {
    reader: &'r DeviceUnderTest,
    _memory: RingAllocation,
    base: u64,
    slot_bytes: u64,
    slots: u32,
    out: DeviceBuffer<u64>,
}

impl LinkChaseRunner for CudaLinkChaseRunner {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn reach_peer(&mut self, reader: &DeviceUnderTest, owner: &DeviceUnderTest) -> Result<bool> {
        if self.reaches(reader, owner) {
            return Ok(true);
        }
        if !PeerAttributes::query(reader.gpu(), owner.gpu())?.access_supported {
            return Ok(false);
        }
        let access = PeerAccess::enable(reader.gpu(), owner.gpu())?;
        self.peers
            .push(((reader.info().ordinal.0, owner.info().ordinal.0), access));
        Ok(true)
    }

    fn place_ring<'r>(
        &'r self,
        reader: &'r DeviceUnderTest,
        memory: RingMemory<'_>,
        successors: &[u32],
        slot_bytes: u64,
    ) -> Result<Box<dyn ChaseRing + 'r>> {
        let words = ring_words(successors, slot_bytes)?;
        let (memory, base) = match memory {
            RingMemory::Own | RingMemory::Peer(_) => {
                let owner = match memory {
                    RingMemory::Peer(owner) if !self.reaches(reader, owner) => {
                        return Err(Error::InvalidInput(format!(
                            "GPU {} has no peer access to GPU {}'s memory",
                            reader.info().ordinal,
                            owner.info().ordinal
                        )));
                    }
                    RingMemory::Peer(owner) => owner,
                    _ => reader,
                };
                let mut buffer = DeviceBuffer::<u64>::uninit(owner.gpu(), words)?;
                let base = buffer.device_ptr();
                buffer.copy_from_host(&pointer_ring_words(base, slot_bytes, successors))?;
                (RingAllocation::Device(buffer), base)
            }
            RingMemory::MappedHost => {
                let (guard, _) = bind_near_gpu(&reader.info().pci_bus_id);
                let mut buffer = PinnedBuffer::<u64>::new(reader.gpu(), words, HostMemoryKind::Mapped)?;
                drop(guard);
                let base = buffer.device_ptr()?;
                buffer
                    .as_mut_slice()
                    .copy_from_slice(&pointer_ring_words(base, slot_bytes, successors));
                (RingAllocation::Host(buffer), base)
            }
        };
        Ok(Box::new(CudaChaseRing {
            reader,
            _memory: memory,
            base,
            slot_bytes,
            slots: successors.len() as u32,
            out: DeviceBuffer::uninit(reader.gpu(), LATENCY_OUT_WORDS)?,
        }))
    }
}

impl ChaseRing for CudaChaseRing<'_> {
    fn slots(&self) -> u32 {
        self.slots
    }

    fn slot_address(&self, slot: u32) -> u64 {
        self.base + slot as u64 * self.slot_bytes
    }

    fn chase(&mut self, implementation: Implementation, slot: u32, steps: (u32, u32)) -> Result<Vec<u64>> {
        if slot >= self.slots {
            return Err(Error::InvalidLaunch {
                kernel: "pointer_chase",
                reason: format!("start slot {slot} of a {}-slot ring", self.slots),
            });
        }
        let start = GlobalPtr::from_raw(self.slot_address(slot) as usize as *const u64);
        // SAFETY: every slot of the ring holds the reader-visible address of another slot of the same
        // live allocation (pointer_ring_words over checked links); the start is one of its slots; peer
        // access (checked when placed, held by the runner) or the mapping is in place.
        unsafe { pointer_chase_from(self.reader, implementation, start, steps, &mut self.out)? };
        self.reader.gpu().synchronize()?;
        self.out.to_host()
    }
}
