use kernels_gpu::device::GlobalPtr;

use super::check_slot_links;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu};

/// A pointer-chase ring in device memory: `slots` slots of `slot_bytes`
/// bytes, the first word of each holding the device address of the next
/// slot's (the layout of [`pointer_ring_words`]). Built only here,
/// from checked successors, so every address the chase can reach is a slot
/// of this buffer.
pub struct PointerRing {
    words: DeviceBuffer<u64>,
    slot_bytes: u64,
}

/// The 64-bit words of a ring whose slot `i` links to slot `successors[i]`
/// (checked), in slots of `slot_bytes` bytes (a positive multiple of 8).
pub(in crate::launchers) fn ring_words(successors: &[u32], slot_bytes: u64) -> Result<usize> {
    check_slot_links(successors)?;
    if slot_bytes < 8 || !slot_bytes.is_multiple_of(8) {
        return Err(Error::InvalidInput(format!(
            "slots of {slot_bytes} bytes: a positive multiple of 8 is needed"
        )));
    }
    (successors.len() as u64)
        .checked_mul(slot_bytes / 8)
        .and_then(|w| usize::try_from(w).ok())
        .ok_or_else(|| Error::InvalidInput(format!("{} slots of {slot_bytes} bytes", successors.len())))
}

impl PointerRing {
    /// Allocates `successors.len() * slot_bytes` bytes and writes the ring
    /// whose slot `i` links to slot `successors[i]` (`slot_bytes` a positive
    /// multiple of 8; 128 or more keeps every step on its own cache line).
    /// Builds the whole image on the host first: 4 GiB of host memory for a
    /// 4 GiB ring.
    pub fn upload(gpu: &Gpu, successors: &[u32], slot_bytes: u64) -> Result<Self> {
        let words = ring_words(successors, slot_bytes)?;
        let mut buffer = DeviceBuffer::<u64>::uninit(gpu, words)?;
        let image = pointer_ring_words(buffer.device_ptr(), slot_bytes, successors);
        buffer.copy_from_host(&image)?;
        Ok(Self {
            words: buffer,
            slot_bytes,
        })
    }

    pub fn slots(&self) -> u64 {
        self.words.bytes() as u64 / self.slot_bytes
    }

    pub fn slot_bytes(&self) -> u64 {
        self.slot_bytes
    }

    /// The ring's size in bytes: the chase's working set.
    pub fn bytes(&self) -> u64 {
        self.words.bytes() as u64
    }

    /// The device address of slot `slot`'s link (what `out[0]` of a chase holds at its end).
    pub fn slot_address(&self, slot: u64) -> Result<u64> {
        if slot >= self.slots() {
            return Err(Error::InvalidInput(format!(
                "slot {slot} of a {}-slot ring",
                self.slots()
            )));
        }
        Ok(self.words.device_ptr() + slot * self.slot_bytes)
    }

    /// Slot `slot`'s link as a kernel parameter.
    pub(crate) fn start(&self, slot: u64) -> Result<GlobalPtr<u64>> {
        Ok(GlobalPtr::from_raw(self.slot_address(slot)? as usize as *const u64))
    }
}

/// The words of a pointer-chase ring at device address `base_address`: slot
/// `i` is `slot_bytes` bytes at `base_address + i * slot_bytes`, its first
/// word holds the address of its successor's first word, the rest are zero.
/// `slot_bytes` must be a positive multiple of 8.
pub fn pointer_ring_words(base_address: u64, slot_bytes: u64, successors: &[u32]) -> Vec<u64> {
    assert!(
        slot_bytes >= 8 && slot_bytes.is_multiple_of(8),
        "slot of {slot_bytes} bytes"
    );
    let slot_words = (slot_bytes / 8) as usize;
    let mut words = vec![0u64; successors.len() * slot_words];
    for (slot, &next) in successors.iter().enumerate() {
        words[slot * slot_words] = base_address + next as u64 * slot_bytes;
    }
    words
}

#[cfg(test)]
mod tests {
    use super::ring_words;

    #[test]
    fn a_ring_takes_slot_bytes_over_eight_words_a_slot_once_its_links_and_slots_check() {
        assert_eq!(ring_words(&[1, 2, 0], 128).unwrap(), 48);
        assert_eq!(ring_words(&[0], 8).unwrap(), 1);
        assert!(ring_words(&[1, 3, 0], 128).is_err(), "a link outside the ring");
        assert!(ring_words(&[], 128).is_err(), "no slots");
        assert!(ring_words(&[1, 0], 0).is_err(), "empty slots");
        assert!(ring_words(&[1, 0], 12).is_err(), "slots not whole words");
    }
}
