use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu};

/// A ring of slot indices in device memory (`links[i]` = the slot after
/// `i`), checked on the way in: every link names a slot of the ring. The
/// chases that read it (`shared_pointer_chase`, `occupancy_chase`) follow
/// links without bounds checks, so only a checked ring may reach them.
pub struct SlotRing {
    links: DeviceBuffer<u32>,
}

impl SlotRing {
    /// Checks `links` (not empty, each below their count; a permutation from
    /// `reference::chase_successors` is one) and copies them to the GPU.
    pub fn upload(gpu: &Gpu, links: &[u32]) -> Result<Self> {
        check_slot_links(links)?;
        Ok(Self {
            links: DeviceBuffer::from_host(gpu, links)?,
        })
    }

    pub fn slots(&self) -> usize {
        self.links.len()
    }

    /// The links, for a kernel parameter.
    pub(crate) fn links(&self) -> &DeviceBuffer<u32> {
        &self.links
    }
}

/// `Ok` if `links` is a usable ring: at least one slot, fewer than 2^32, and
/// every link below the slot count.
pub fn check_slot_links(links: &[u32]) -> Result<()> {
    if links.is_empty() || links.len() > u32::MAX as usize {
        return Err(Error::InvalidInput(format!("a ring of {} slots", links.len())));
    }
    match links.iter().enumerate().find(|&(_, &l)| l as usize >= links.len()) {
        Some((slot, link)) => Err(Error::InvalidInput(format!(
            "slot {slot} of a {}-slot ring links to {link}, outside it",
            links.len()
        ))),
        None => Ok(()),
    }
}
