//! Which OpenCL device is a given CUDA device: by UUID (`cl_khr_device_uuid`),
//! else by PCI address (`cl_khr_pci_bus_info` or NVIDIA's attribute query).
//! Never "the first GPU": on a machine with several GPUs, or a CPU platform
//! listed first, that would measure the wrong device.

use super::{OpenClDeviceInfo, PciAddress, device_info::uuid_string};

/// How a device was matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceMatch {
    Uuid,
    PciAddress,
}

/// The index of the device in `devices` that is the CUDA device with `uuid`
/// (all zeros: unknown, not compared) at `pci_bus_id` (`0000:c1:00.0`), and how
/// it matched; `Err` says why none does, listing what each device offers.
pub fn match_device(
    devices: &[&OpenClDeviceInfo],
    uuid: [u8; 16],
    pci_bus_id: &str,
) -> Result<(usize, DeviceMatch), String> {
    let uuid_known = uuid != [0; 16];
    if uuid_known && let Some(index) = devices.iter().position(|d| d.uuid == Some(uuid)) {
        return Ok((index, DeviceMatch::Uuid));
    }
    let wanted = PciAddress::parse(pci_bus_id);
    if let Some(wanted) = wanted
        && let Some(index) = devices
            .iter()
            .position(|d| d.pci_address.is_some_and(|p| p.same_device(&wanted)))
    {
        return Ok((index, DeviceMatch::PciAddress));
    }
    let asked = match (uuid_known, wanted) {
        (true, Some(pci)) => format!("UUID {} or PCI address {pci}", uuid_string(&uuid)),
        (true, None) => format!("UUID {} (PCI bus id {pci_bus_id:?} not understood)", uuid_string(&uuid)),
        (false, Some(pci)) => format!("PCI address {pci}"),
        (false, None) => format!("PCI bus id {pci_bus_id:?} (not understood, and no UUID given)"),
    };
    let offered: Vec<String> = devices
        .iter()
        .map(|d| {
            let uuid = d.uuid_string().unwrap_or_else(|| "no UUID".into());
            let pci = d
                .pci_address
                .map_or_else(|| "no PCI address".into(), |p| format!("PCI {p}"));
            format!("{} on {} ({uuid}, {pci})", d.name.trim(), d.platform_name.trim())
        })
        .collect();
    let hint = if devices.iter().any(|d| d.is_nvidia()) {
        ""
    } else {
        "; no NVIDIA OpenCL platform is registered with the ICD loader (see opencl::register_vendor_libraries)"
    };
    Err(format!(
        "no OpenCL device matches {asked}; the devices are: {}{hint}",
        if offered.is_empty() {
            "none".to_string()
        } else {
            offered.join("; ")
        }
    ))
}
