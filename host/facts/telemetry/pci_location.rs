//! Where a GPU sits on PCI: the key, besides the UUID, that ties an NVML
//! device to a CUDA device, and an NVLink's far end to a GPU of the run.

use std::fmt;

use serde::{Deserialize, Serialize};

/// PCI domain, bus and device (NVIDIA GPUs are function 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PciLocation {
    pub domain: u32,
    pub bus: u32,
    pub device: u32,
}

impl PciLocation {
    /// Parses `domain:bus:device[.function]` in hexadecimal, in any of the forms the
    /// suite meets: CUDA's attribute triple as [`DeviceInfo`](crate::facts::DeviceInfo)
    /// prints it (`0000:c1:00`), `cuDeviceGetPCIBusId` (`0000:c1:00.0`) and NVML /
    /// nvidia-smi (`00000000:C1:00.0`). `None` for anything else (a function other than 0 too).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (rest, function) = match text.rsplit_once('.') {
            Some((rest, function)) => (rest, Some(function)),
            None => (text, None),
        };
        let hex = |s: &str, digits: usize| {
            (!s.is_empty() && s.len() <= digits && s.chars().all(|c| c.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(s, 16).ok())
                .flatten()
        };
        if let Some(function) = function
            && hex(function, 1)? != 0
        {
            return None;
        }
        let [domain, bus, device] = rest.split(':').collect::<Vec<_>>()[..] else {
            return None;
        };
        let location = Self {
            domain: hex(domain, 8)?,
            bus: hex(bus, 2)?,
            device: hex(device, 2)?,
        };
        (location.device <= 0x1f).then_some(location)
    }
}

impl fmt::Display for PciLocation {
    /// `0000:c1:00`, the form of [`DeviceInfo::pci_bus_id`](crate::facts::DeviceInfo).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04x}:{:02x}:{:02x}", self.domain, self.bus, self.device)
    }
}

#[cfg(test)]
mod tests {
    use super::PciLocation;

    #[test]
    fn cuda_and_nvml_spellings_of_one_slot_agree() {
        let expected = PciLocation {
            domain: 0,
            bus: 0xc1,
            device: 0,
        };
        for text in ["0000:c1:00", "0000:c1:00.0", "00000000:C1:00.0", " 00000000:c1:00.0 "] {
            assert_eq!(PciLocation::parse(text), Some(expected), "{text}");
        }
        assert_eq!(expected.to_string(), "0000:c1:00");
        let wide = PciLocation::parse("0001a2b3:07:1f.0").unwrap();
        assert_eq!((wide.domain, wide.bus, wide.device), (0x1a2b3, 7, 0x1f));
    }

    #[test]
    fn malformed_ids_are_refused() {
        for text in [
            "",
            "c1:00.0",
            "0000:c1",
            "0000:c1:00.1",
            "0000:c1:20.0",
            "0000:1c1:00",
            "0000:g1:00",
            "000000000:c1:00",
            "0000:c1:00:00",
            "GPU-00112233",
        ] {
            assert_eq!(PciLocation::parse(text), None, "{text}");
        }
    }
}
