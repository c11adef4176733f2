//! A PCI address (`domain:bus:device.function`), the key that ties an OpenCL
//! device to a CUDA device when the OpenCL driver gives no UUID.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a device sits on the PCI bus. `domain` is `None` when the source
/// does not say (`cl_nv_device_attribute_query` gives bus and slot only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PciAddress {
    pub domain: Option<u32>,
    pub bus: u32,
    pub device: u32,
    pub function: u32,
}

impl PciAddress {
    /// Parses the `[domain:]bus:device.function` form in hexadecimal that CUDA
    /// (`cuDeviceGetPCIBusId`: `0000:c1:00.0`) and nvidia-smi (`00000000:C1:00.0`) print.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (rest, function) = text.rsplit_once('.')?;
        let parts: Vec<&str> = rest.split(':').collect();
        let hex = |s: &str| (!s.is_empty() && s.len() <= 8).then(|| u32::from_str_radix(s, 16).ok())?;
        let (domain, bus, device) = match parts.as_slice() {
            [bus, device] => (None, hex(bus)?, hex(device)?),
            [domain, bus, device] => (Some(hex(domain)?), hex(bus)?, hex(device)?),
            _ => return None,
        };
        let function = hex(function)?;
        (bus <= 0xff && device <= 0x1f && function <= 0x7).then_some(Self {
            domain,
            bus,
            device,
            function,
        })
    }

    /// The address from NVIDIA's `CL_DEVICE_PCI_BUS_ID_NV` and `CL_DEVICE_PCI_SLOT_ID_NV`:
    /// the slot id packs the device number above the 3-bit function number.
    pub fn from_nv_bus_and_slot(bus: u32, slot: u32) -> Self {
        Self {
            domain: None,
            bus,
            device: slot >> 3,
            function: slot & 0x7,
        }
    }

    /// Whether both name the same device: bus, device and function equal, and
    /// the domains too where both are known.
    pub fn same_device(&self, other: &Self) -> bool {
        let domains_agree = match (self.domain, other.domain) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        domains_agree && self.bus == other.bus && self.device == other.device && self.function == other.function
    }
}

impl fmt::Display for PciAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.domain {
            Some(domain) => write!(f, "{domain:04x}:"),
            None => write!(f, "????:"),
        }?;
        write!(f, "{:02x}:{:02x}.{:x}", self.bus, self.device, self.function)
    }
}
