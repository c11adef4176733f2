//! What an OpenCL device says about itself (`clGetDeviceInfo`, `clGetPlatformInfo`).

use cl3::device::{
    CL_DEVICE_EXTENSIONS, CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_SUPPORT,
    CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_MAX_CLOCK_FREQUENCY, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_NAME, CL_DEVICE_OPENCL_C_FEATURES,
    CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_TYPE, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
    CL_DEVICE_VENDOR, CL_DEVICE_VERSION, CL_DRIVER_VERSION, get_device_data,
};
use cl3::platform::{CL_PLATFORM_NAME, CL_PLATFORM_VENDOR, CL_PLATFORM_VERSION, get_platform_data};
use cl3::types::{cl_device_id, cl_platform_id};
use serde::{Deserialize, Serialize};

use super::PciAddress;
use super::error::{ClResult, ClStatusExt};

/// `cl_khr_device_uuid`: the device's 16-byte UUID (the one CUDA reports for the same GPU).
pub const CL_DEVICE_UUID_KHR: u32 = 0x106A;
/// `cl_khr_pci_bus_info`: a `{domain, bus, device, function}` struct of four `cl_uint`s.
pub const CL_DEVICE_PCI_BUS_INFO_KHR: u32 = 0x410F;
/// `cl_nv_device_attribute_query`: the PCI bus number.
pub const CL_DEVICE_PCI_BUS_ID_NV: u32 = 0x4008;
/// `cl_nv_device_attribute_query`: device and function, `device << 3 | function`.
pub const CL_DEVICE_PCI_SLOT_ID_NV: u32 = 0x4009;

/// The kind of processor behind an OpenCL device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClDeviceType {
    Gpu,
    Cpu,
    Accelerator,
    Other,
}

/// One OpenCL device and the platform it belongs to, as the driver describes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenClDeviceInfo {
    pub platform_name: String,
    pub platform_vendor: String,
    /// `OpenCL <major>.<minor> <platform-specific>`, e.g. `OpenCL 3.0 CUDA 13.0.0`.
    pub platform_version: String,
    pub name: String,
    pub vendor: String,
    /// The device's OpenCL version string.
    pub version: String,
    pub driver_version: String,
    /// `OpenCL C <major>.<minor> ...`: the highest OpenCL C the compiler accepts by default.
    pub opencl_c_version: String,
    pub device_type: ClDeviceType,
    pub extensions: Vec<String>,
    /// OpenCL 3.0 optional features (`__opencl_c_subgroups`, ...); empty before 3.0.
    pub opencl_c_features: Vec<String>,
    pub compute_units: u32,
    pub max_clock_mhz: u32,
    pub max_work_group_size: usize,
    pub local_memory_bytes: u64,
    pub global_memory_bytes: u64,
    pub max_allocation_bytes: u64,
    /// Buffer alignment in bits (`CL_DEVICE_MEM_BASE_ADDR_ALIGN`).
    pub base_address_align_bits: u32,
    pub image_support: bool,
    /// The most texels an `image1d_buffer_t` may have (0 without image support).
    pub image1d_buffer_max_texels: usize,
    /// `cl_khr_device_uuid`, where offered.
    pub uuid: Option<[u8; 16]>,
    /// `cl_khr_pci_bus_info`, else `cl_nv_device_attribute_query`, where offered.
    pub pci_address: Option<PciAddress>,
}

impl OpenClDeviceInfo {
    /// Asks the driver for everything above.
    pub(crate) fn query(platform: cl_platform_id, device: cl_device_id) -> ClResult<Self> {
        let extensions: Vec<String> = device_string(device, CL_DEVICE_EXTENSIONS)?
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let has = |name: &str| extensions.iter().any(|e| e == name);
        let image_support = device_u32(device, CL_DEVICE_IMAGE_SUPPORT)? != 0;
        let uuid = if has("cl_khr_device_uuid") {
            get_device_data(device, CL_DEVICE_UUID_KHR)
                .ok()
                .and_then(|bytes| <[u8; 16]>::try_from(bytes.as_slice()).ok())
        } else {
            None
        };
        let pci_address = if has("cl_khr_pci_bus_info") {
            get_device_data(device, CL_DEVICE_PCI_BUS_INFO_KHR)
                .ok()
                .and_then(|bytes| pci_bus_info_khr(&bytes))
        } else if has("cl_nv_device_attribute_query") {
            match (
                device_u32(device, CL_DEVICE_PCI_BUS_ID_NV),
                device_u32(device, CL_DEVICE_PCI_SLOT_ID_NV),
            ) {
                (Ok(bus), Ok(slot)) => Some(PciAddress::from_nv_bus_and_slot(bus, slot)),
                _ => None,
            }
        } else {
            None
        };
        Ok(Self {
            platform_name: platform_string(platform, CL_PLATFORM_NAME)?,
            platform_vendor: platform_string(platform, CL_PLATFORM_VENDOR)?,
            platform_version: platform_string(platform, CL_PLATFORM_VERSION)?,
            name: device_string(device, CL_DEVICE_NAME)?,
            vendor: device_string(device, CL_DEVICE_VENDOR)?,
            version: device_string(device, CL_DEVICE_VERSION)?,
            driver_version: device_string(device, CL_DRIVER_VERSION)?,
            opencl_c_version: device_string(device, CL_DEVICE_OPENCL_C_VERSION)?,
            device_type: device_type(device_u64(device, CL_DEVICE_TYPE)?),
            opencl_c_features: get_device_data(device, CL_DEVICE_OPENCL_C_FEATURES)
                .map(|bytes| name_versions(&bytes))
                .unwrap_or_default(),
            extensions,
            compute_units: device_u32(device, CL_DEVICE_MAX_COMPUTE_UNITS)?,
            max_clock_mhz: device_u32(device, CL_DEVICE_MAX_CLOCK_FREQUENCY)?,
            max_work_group_size: device_usize(device, CL_DEVICE_MAX_WORK_GROUP_SIZE)?,
            local_memory_bytes: device_u64(device, CL_DEVICE_LOCAL_MEM_SIZE)?,
            global_memory_bytes: device_u64(device, CL_DEVICE_GLOBAL_MEM_SIZE)?,
            max_allocation_bytes: device_u64(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)?,
            base_address_align_bits: device_u32(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN)?,
            image_support,
            image1d_buffer_max_texels: if image_support {
                device_usize(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE).unwrap_or(0)
            } else {
                0
            },
            uuid,
            pci_address,
        })
    }

    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// Double precision (`cl_khr_fp64`).
    pub fn fp64(&self) -> bool {
        self.has_extension("cl_khr_fp64")
    }

    /// Sub-groups with their built-ins (`sub_group_reduce_add`) usable from
    /// OpenCL C: the `__opencl_c_subgroups` feature of OpenCL C 3.0, or
    /// `cl_khr_subgroups` with OpenCL C 2.0 or later (a device listing the
    /// extension beside OpenCL C 1.2 cannot compile them: some PoCL builds do).
    pub fn sub_groups(&self) -> bool {
        let c_version = self.opencl_c_version_number().unwrap_or((1, 2));
        (c_version >= (3, 0) && self.opencl_c_features.iter().any(|f| f == "__opencl_c_subgroups"))
            || (c_version >= (2, 0) && self.has_extension("cl_khr_subgroups"))
    }

    /// NVIDIA's OpenCL driver (platform "NVIDIA CUDA").
    pub fn is_nvidia(&self) -> bool {
        self.vendor.to_ascii_uppercase().contains("NVIDIA")
            || self.platform_name.to_ascii_uppercase().contains("NVIDIA")
    }

    /// `(major, minor)` of the OpenCL C version.
    pub fn opencl_c_version_number(&self) -> Option<(u32, u32)> {
        version_number(self.opencl_c_version.strip_prefix("OpenCL C ")?)
    }

    /// `(major, minor)` of the device's OpenCL version.
    pub fn version_number(&self) -> Option<(u32, u32)> {
        version_number(self.version.strip_prefix("OpenCL ")?)
    }

    /// The UUID in the usual 8-4-4-4-12 hexadecimal form, where the device gives one.
    pub fn uuid_string(&self) -> Option<String> {
        self.uuid.map(|uuid| uuid_string(&uuid))
    }

    /// One line: name, platform, versions, UUID and PCI address where known.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{} ({}; {}; {}; {} compute units)",
            self.name.trim(),
            self.platform_name.trim(),
            self.version.trim(),
            self.opencl_c_version.trim(),
            self.compute_units
        );
        if let Some(uuid) = self.uuid_string() {
            line.push_str(&format!(", UUID {uuid}"));
        }
        if let Some(pci) = self.pci_address {
            line.push_str(&format!(", PCI {pci}"));
        }
        line
    }
}

/// `GPU-`-less 8-4-4-4-12 hexadecimal form of a 16-byte UUID.
pub fn uuid_string(uuid: &[u8; 16]) -> String {
    let hex: String = uuid.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// `(major, minor)` from text starting `<major>.<minor>` (`"1.2 PoCL"` → `(1, 2)`).
pub fn version_number(text: &str) -> Option<(u32, u32)> {
    let token = text.split_whitespace().next()?;
    let (major, minor) = token.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The names in an array of `cl_name_version` (a `cl_version` then a 64-byte NUL-padded name).
pub fn name_versions(bytes: &[u8]) -> Vec<String> {
    const NAME_BYTES: usize = 64;
    bytes
        .as_chunks::<{ 4 + NAME_BYTES }>()
        .0
        .iter()
        .map(|entry| c_string(&entry[4..]))
        .filter(|name| !name.is_empty())
        .collect()
}

/// The address in a `cl_device_pci_bus_info_khr` (four native-endian `cl_uint`s).
pub fn pci_bus_info_khr(bytes: &[u8]) -> Option<PciAddress> {
    let (words, rest) = bytes.as_chunks::<4>();
    if !rest.is_empty() {
        return None;
    }
    let words: Vec<u32> = words.iter().map(|w| u32::from_ne_bytes(*w)).collect();
    match words.as_slice() {
        [domain, bus, device, function] => Some(PciAddress {
            domain: Some(*domain),
            bus: *bus,
            device: *device,
            function: *function,
        }),
        _ => None,
    }
}

fn device_type(bits: u64) -> ClDeviceType {
    if bits & CL_DEVICE_TYPE_GPU != 0 {
        ClDeviceType::Gpu
    } else if bits & CL_DEVICE_TYPE_CPU != 0 {
        ClDeviceType::Cpu
    } else if bits & CL_DEVICE_TYPE_ACCELERATOR != 0 {
        ClDeviceType::Accelerator
    } else {
        ClDeviceType::Other
    }
}

/// Text up to the first NUL, trimmed.
fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).trim().to_string()
}

fn platform_string(platform: cl_platform_id, param: u32) -> ClResult<String> {
    get_platform_data(platform, param)
        .map(|bytes| c_string(&bytes))
        .during("clGetPlatformInfo")
}

fn device_string(device: cl_device_id, param: u32) -> ClResult<String> {
    get_device_data(device, param)
        .map(|bytes| c_string(&bytes))
        .during("clGetDeviceInfo")
}

/// A fixed-size native-endian integer answer of `N` bytes.
fn device_word<const N: usize>(device: cl_device_id, param: u32) -> ClResult<[u8; N]> {
    let bytes = get_device_data(device, param).during("clGetDeviceInfo")?;
    <[u8; N]>::try_from(bytes.as_slice()).map_err(|_| {
        super::OpenClError::Invalid(format!(
            "clGetDeviceInfo(0x{param:x}) returned {} bytes, expected {N}",
            bytes.len()
        ))
    })
}

fn device_u32(device: cl_device_id, param: u32) -> ClResult<u32> {
    device_word::<4>(device, param).map(u32::from_ne_bytes)
}

fn device_u64(device: cl_device_id, param: u32) -> ClResult<u64> {
    device_word::<8>(device, param).map(u64::from_ne_bytes)
}

fn device_usize(device: cl_device_id, param: u32) -> ClResult<usize> {
    device_word::<{ size_of::<usize>() }>(device, param).map(usize::from_ne_bytes)
}
