//! The few C types of NVML's ABI (`nvml.h`, API version 13 and earlier) that
//! the suite passes across the boundary, laid out as the header declares them.

use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};

/// `nvmlReturn_t`: 0 is success.
pub(super) type NvmlReturn = c_uint;
/// `nvmlDevice_t`: an opaque handle, valid while NVML is initialized.
pub(super) type RawDevice = *mut c_void;

pub(super) const NVML_SUCCESS: NvmlReturn = 0;
pub(super) const NVML_ERROR_INVALID_ARGUMENT: NvmlReturn = 2;
pub(super) const NVML_ERROR_NOT_SUPPORTED: NvmlReturn = 3;

/// `NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE` and `NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE`.
const BUS_ID_LEGACY_LEN: usize = 16;
const BUS_ID_LEN: usize = 32;
/// Buffers for names, UUIDs and version strings (NVML's longest is 96 bytes).
pub(super) const TEXT_BUFFER_LEN: usize = 256;
/// `NVML_NVLINK_MAX_LINKS` of API 13 (older headers said 18, 12, 6): links past a
/// device's count answer `NVML_ERROR_INVALID_ARGUMENT`.
pub(super) const NVLINK_MAX_LINKS: u32 = 36;

/// `nvmlClockType_t`.
pub(super) const NVML_CLOCK_SM: c_uint = 1;
pub(super) const NVML_CLOCK_MEM: c_uint = 2;
/// `nvmlTemperatureSensors_t::NVML_TEMPERATURE_GPU`.
pub(super) const NVML_TEMPERATURE_GPU: c_uint = 0;
/// `nvmlEnableState_t::NVML_FEATURE_ENABLED`.
pub(super) const NVML_FEATURE_ENABLED: c_uint = 1;

/// Field ids of `nvmlDeviceGetFieldValues`: per-link NVLink speed in MB/s (scope = link), and the
/// older "common speed of the active links".
pub(super) const NVML_FI_DEV_NVLINK_GET_SPEED: c_uint = 164;
pub(super) const NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON: c_uint = 90;

/// `nvmlPciInfo_t` (the `_v3` query and `nvmlDeviceGetNvLinkRemotePciInfo_v2` fill it).
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct PciInfo {
    pub bus_id_legacy: [c_char; BUS_ID_LEGACY_LEN],
    pub domain: c_uint,
    pub bus: c_uint,
    pub device: c_uint,
    pub pci_device_id: c_uint,
    pub pci_sub_system_id: c_uint,
    pub bus_id: [c_char; BUS_ID_LEN],
}

impl PciInfo {
    pub fn zeroed() -> Self {
        Self {
            bus_id_legacy: [0; BUS_ID_LEGACY_LEN],
            domain: 0,
            bus: 0,
            device: 0,
            pci_device_id: 0,
            pci_sub_system_id: 0,
            bus_id: [0; BUS_ID_LEN],
        }
    }
}

/// `nvmlTemperature_v1_t` of `nvmlDeviceGetTemperatureV` (the query that replaces
/// `nvmlDeviceGetTemperature`, deprecated in NVML 13).
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct TemperatureV1 {
    /// `NVML_STRUCT_VERSION(Temperature, 1)`: the struct's size, version 1 in the top byte.
    pub version: c_uint,
    pub sensor_type: c_uint,
    pub temperature: c_int,
}

impl TemperatureV1 {
    pub fn request() -> Self {
        Self {
            version: std::mem::size_of::<Self>() as c_uint | (1 << 24),
            sensor_type: NVML_TEMPERATURE_GPU,
            temperature: 0,
        }
    }
}

/// `nvmlValue_t`: which member is valid, `value_type` of the field says.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) union Value {
    pub d_val: f64,
    pub si_val: c_int,
    pub ui_val: c_uint,
    pub ul_val: std::ffi::c_ulong,
    pub ull_val: c_ulonglong,
    pub sll_val: i64,
    pub us_val: u16,
}

/// `nvmlFieldValue_t`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct FieldValue {
    pub field_id: c_uint,
    pub scope_id: c_uint,
    pub timestamp: i64,
    pub latency_usec: i64,
    pub value_type: c_uint,
    pub nvml_return: NvmlReturn,
    pub value: Value,
}

impl FieldValue {
    pub fn request(field_id: c_uint, scope_id: c_uint) -> Self {
        Self {
            field_id,
            scope_id,
            timestamp: 0,
            latency_usec: 0,
            value_type: 0,
            nvml_return: NVML_SUCCESS,
            value: Value { ull_val: 0 },
        }
    }

    /// The value as a number, if NVML filled it (see [`decode_value`]).
    pub fn number(&self) -> Option<f64> {
        if self.nvml_return != NVML_SUCCESS {
            return None;
        }
        // SAFETY: reading all 8 bytes of a union that was zero-initialised as u64 and then written by
        // NVML; `decode_value` reinterprets them by the type tag NVML set.
        let bits = unsafe { self.value.ull_val };
        decode_value(self.value_type, bits)
    }
}

/// The number an `nvmlValue_t` holds, from its 8 bytes and `nvmlValueType_t`
/// (little-endian: the narrower members are the low bytes); `None` for an unknown type.
pub(super) fn decode_value(value_type: c_uint, bits: u64) -> Option<f64> {
    Some(match value_type {
        0 => f64::from_bits(bits),
        1 => (bits as u32) as f64,
        2 | 3 => bits as f64,
        4 => (bits as i64) as f64,
        5 => (bits as u32 as i32) as f64,
        6 => (bits as u16) as f64,
        _ => return None,
    })
}

/// The text of a NUL-terminated C buffer (up to its first NUL; the whole buffer if none).
pub(super) fn text_of(buffer: &[c_char]) -> String {
    let bytes: Vec<u8> = buffer.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::{FieldValue, PciInfo, decode_value, text_of};

    #[test]
    fn abi_structs_have_the_headers_sizes() {
        // nvmlPciInfo_t: 16 + 5 × 4 + 32 bytes; nvmlFieldValue_t: 2 × 4 + 2 × 8 + 2 × 4 + 8.
        assert_eq!(std::mem::size_of::<PciInfo>(), 68);
        assert_eq!(std::mem::size_of::<FieldValue>(), 40);
        assert_eq!(std::mem::align_of::<FieldValue>(), 8);
        // nvmlTemperature_v1 = sizeof | 1 << 24.
        assert_eq!(super::TemperatureV1::request().version, 12 | 0x0100_0000);
    }

    #[test]
    fn values_decode_by_their_type_tag() {
        assert_eq!(decode_value(0, 26.5f64.to_bits()), Some(26.5));
        assert_eq!(decode_value(1, 0xffff_ffff_0000_6a00), Some(27136.0));
        assert_eq!(decode_value(3, 1 << 40), Some((1u64 << 40) as f64));
        assert_eq!(decode_value(4, (-3i64) as u64), Some(-3.0));
        assert_eq!(decode_value(5, 0xdead_beef_ffff_fffe), Some(-2.0));
        assert_eq!(decode_value(6, 0x1_0005), Some(5.0));
        assert_eq!(decode_value(7, 1), None);
    }

    #[test]
    fn c_text_stops_at_the_first_nul() {
        let mut buffer = [0 as std::ffi::c_char; 16];
        for (slot, byte) in buffer.iter_mut().zip(b"NVIDIA H100\0junk") {
            *slot = *byte as std::ffi::c_char;
        }
        assert_eq!(text_of(&buffer), "NVIDIA H100");
        let full = [b'a' as std::ffi::c_char; 4];
        assert_eq!(text_of(&full), "aaaa");
    }
}
