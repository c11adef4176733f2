use std::sync::Arc;

use cudarc::driver::{CudaContext, sys};

use crate::bandwidth::theoretical_bandwidth_gbps;
use crate::error::{DriverResultExt, Result};
use crate::facts::{CudaOrdinal, DeviceInfo};

/// The GPU layer fills the report's device facts from the driver.
impl DeviceInfo {
    pub fn query(ctx: &Arc<CudaContext>) -> Result<Self> {
        use sys::CUdevice_attribute::*;
        let attr = |a: sys::CUdevice_attribute| ctx.attribute(a).during("cuDeviceGetAttribute");
        let memory_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)? as i64;
        let memory_bus_width_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)? as i64;
        let pci_bus_id = format!(
            "{:04x}:{:02x}:{:02x}",
            attr(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
            attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
            attr(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?
        );
        let mut driver_version = 0;
        // SAFETY: cuDriverGetVersion writes one int through a valid pointer.
        unsafe { sys::cuDriverGetVersion(&mut driver_version) }
            .result()
            .during("cuDriverGetVersion")?;
        Ok(Self {
            uuid: uuid(ctx),
            ordinal: CudaOrdinal(ctx.ordinal()),
            name: ctx.name().during("cuDeviceGetName")?,
            compute_capability: ctx.compute_capability().during("cuDeviceGetAttribute")?,
            multiprocessors: attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            l2_cache_bytes: attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as i64,
            total_memory_bytes: ctx.total_mem().during("cuDeviceTotalMem")? as u64,
            memory_clock_khz,
            memory_bus_width_bits,
            sm_clock_khz: attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)? as i64,
            theoretical_bandwidth_gbps: theoretical_bandwidth_gbps(memory_clock_khz, memory_bus_width_bits),
            ecc_enabled: attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED)? != 0,
            can_map_host_memory: attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)? != 0,
            async_copy_engines: attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)?,
            max_threads_per_multiprocessor: attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            max_shared_memory_per_multiprocessor: attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?
                as i64,
            max_texture_1d_linear_texels: attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH)? as i64,
            pcie_link: pcie_link(&pci_bus_id),
            pci_bus_id,
            driver_version,
        })
    }
}

/// The device's UUID as NVIDIA tools print it (`GPU-xxxxxxxx-xxxx-...`), or
/// `None` if the driver cannot say.
fn uuid(ctx: &Arc<CudaContext>) -> Option<String> {
    let mut raw = sys::CUuuid { bytes: [0; 16] };
    // SAFETY: writes 16 bytes through a valid pointer for a device handle of a live context.
    unsafe { sys::cuDeviceGetUuid_v2(&mut raw, ctx.cu_device()) }
        .result()
        .ok()?;
    Some(format_uuid(&raw.bytes.map(|b| b as u8)))
}

/// `GPU-` and the 16 bytes in the 8-4-4-4-12 grouping (as `nvidia-smi -L`).
pub fn format_uuid(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The 16 bytes of a `GPU-...` UUID string, for matching other APIs' device ids.
pub fn uuid_bytes(uuid: &str) -> Option<[u8; 16]> {
    let hex: String = uuid.strip_prefix("GPU-")?.chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 {
        return None;
    }
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(bytes)
}

/// Current PCIe link speed and width of the device at `bus_id` (`dddd:bb:dd`),
/// read from `/sys/bus/pci/devices/<id>.0/current_link_{speed,width}`.
fn pcie_link(bus_id: &str) -> Option<String> {
    let dir = std::path::Path::new("/sys/bus/pci/devices").join(format!("{bus_id}.0"));
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .ok()
            .map(|s| s.trim().to_string())
    };
    let speed = read("current_link_speed")?;
    let width = read("current_link_width")?;
    Some(format!("{speed} x{width}"))
}

#[cfg(test)]
mod tests {
    use super::{format_uuid, uuid_bytes};

    #[test]
    fn uuids_print_like_nvidia_smi_and_parse_back() {
        let bytes: [u8; 16] = std::array::from_fn(|i| (i * 17) as u8);
        let text = format_uuid(&bytes);
        assert_eq!(text, "GPU-00112233-4455-6677-8899-aabbccddeeff");
        assert_eq!(uuid_bytes(&text), Some(bytes));
        assert_eq!(uuid_bytes("GPU-0011"), None);
        assert_eq!(uuid_bytes("00112233-4455-6677-8899-aabbccddeeff"), None);
    }
}
