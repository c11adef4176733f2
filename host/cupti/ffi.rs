//! The C types of CUPTI's profiling ABI that the suite passes across the
//! boundary (`cupti_profiler_target.h`, `cupti_target.h`,
//! `cupti_profiler_host.h`, `cupti_range_profiler.h`), laid out as the
//! headers declare them, in our own words.
//!
//! Every parameter struct starts with its own size: CUPTI reads only the
//! fields that size covers, so a struct declared as CUDA 12.6 had it keeps
//! working with the CUDA 13 library (later versions only append fields). The
//! `*_SIZE` constants are the headers' `CUPTI_PROFILER_STRUCT_SIZE` (offset of
//! the last field plus its size, without trailing padding) of the CUDA 12.9
//! headers; the tests pin them.

use std::ffi::{c_char, c_void};

/// `CUptiResult`: 0 is success.
pub type CuptiStatus = u32;
/// `CUcontext`, as the driver hands it out.
pub type RawContext = cudarc::driver::sys::CUcontext;

pub const CUPTI_SUCCESS: CuptiStatus = 0;
pub const CUPTI_ERROR_INVALID_METRIC_NAME: CuptiStatus = 17;
pub const CUPTI_ERROR_HARDWARE_BUSY: CuptiStatus = 26;
pub const CUPTI_ERROR_NOT_SUPPORTED: CuptiStatus = 27;
pub const CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED: CuptiStatus = 33;
pub const CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: CuptiStatus = 35;
pub const CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED: CuptiStatus = 38;
pub const CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: CuptiStatus = 39;
pub const CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES: CuptiStatus = 40;
pub const CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED: CuptiStatus = 41;
pub const CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED: CuptiStatus = 42;
pub const CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED: CuptiStatus = 43;
pub const CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED: CuptiStatus = 44;
pub const CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED: CuptiStatus = 45;

/// `CUpti_ProfilerType::CUPTI_PROFILER_TYPE_RANGE_PROFILER`.
pub const PROFILER_TYPE_RANGE_PROFILER: u32 = 0;
/// `CUpti_MetricType`: counter, ratio, throughput.
pub const METRIC_TYPE_COUNTER: u32 = 0;
pub const METRIC_TYPE_RATIO: u32 = 1;
pub const METRIC_TYPE_THROUGHPUT: u32 = 2;
/// `CUpti_ProfilerRange::CUPTI_UserRange`: the range is what the caller pushes and pops.
pub const USER_RANGE: u32 = 2;
/// `CUpti_ProfilerReplayMode::CUPTI_UserReplay`: the caller runs the workload once per pass.
pub const USER_REPLAY: u32 = 3;
/// `CUpti_Profiler_API::CUPTI_PROFILER_RANGE_PROFILING`.
pub const API_RANGE_PROFILING: u32 = 0;
/// `CUpti_Profiler_Support_Level`.
pub const SUPPORT_LEVEL_UNSUPPORTED: u32 = 1;
pub const SUPPORT_LEVEL_DISABLED: u32 = 2;
pub const SUPPORT_LEVEL_SUPPORTED: u32 = 3;

/// An opaque CUPTI object (`CUpti_Profiler_Host_Object`, `CUpti_RangeProfiler_Object`).
pub type Opaque = *mut c_void;

/// The two fields every parameter struct starts with.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Head {
    pub struct_size: usize,
    pub private: *mut c_void,
}

impl Head {
    pub fn of(size: usize) -> Self {
        Self {
            struct_size: size,
            private: std::ptr::null_mut(),
        }
    }
}

/// `CUpti_Profiler_Initialize_Params` and `CUpti_Profiler_DeInitialize_Params`.
#[repr(C)]
pub struct ProfilerInitialize {
    pub head: Head,
}
pub const PROFILER_INITIALIZE_SIZE: usize = 16;

/// `CUpti_Device_GetChipName_Params`.
#[repr(C)]
pub struct DeviceChipName {
    pub head: Head,
    pub device_index: usize,
    pub chip_name: *const c_char,
}
pub const DEVICE_CHIP_NAME_SIZE: usize = 32;

/// `CUpti_Profiler_GetCounterAvailability_Params` (without CUDA 13's trailing flag).
#[repr(C)]
pub struct CounterAvailability {
    pub head: Head,
    pub context: RawContext,
    pub image_size: usize,
    pub image: *mut u8,
}
pub const COUNTER_AVAILABILITY_SIZE: usize = 40;

/// `CUpti_Profiler_DeviceSupported_Params` (without CUDA 13's trailing `sku`).
#[repr(C)]
pub struct DeviceSupported {
    pub head: Head,
    pub device: i32,
    pub supported: u32,
    pub architecture: u32,
    pub sli: u32,
    pub vgpu: u32,
    pub confidential_compute: u32,
    pub cmp: u32,
    pub wsl: u32,
    pub api: u32,
}
pub const DEVICE_SUPPORTED_SIZE: usize = 52;

/// `CUpti_Profiler_Host_Initialize_Params` (without CUDA 13's single-pass set name).
#[repr(C)]
pub struct HostInitialize {
    pub head: Head,
    pub profiler_type: u32,
    pub chip_name: *const c_char,
    pub counter_availability_image: *const u8,
    pub host_object: Opaque,
}
pub const HOST_INITIALIZE_SIZE: usize = 48;

/// `CUpti_Profiler_Host_Deinitialize_Params`.
#[repr(C)]
pub struct HostDeinitialize {
    pub head: Head,
    pub host_object: Opaque,
}
pub const HOST_DEINITIALIZE_SIZE: usize = 24;

/// `CUpti_Profiler_Host_GetBaseMetrics_Params`.
#[repr(C)]
pub struct HostBaseMetrics {
    pub head: Head,
    pub host_object: Opaque,
    pub metric_type: u32,
    pub metric_names: *const *const c_char,
    pub metric_count: usize,
}
pub const HOST_BASE_METRICS_SIZE: usize = 48;

/// `CUpti_Profiler_Host_GetMetricProperties_Params` (without CUDA 13's collection scope).
#[repr(C)]
pub struct HostMetricProperties {
    pub head: Head,
    pub host_object: Opaque,
    pub metric_name: *const c_char,
    pub description: *const c_char,
    pub hardware_unit: *const c_char,
    pub dimension_unit: *const c_char,
    pub metric_type: u32,
}
pub const HOST_METRIC_PROPERTIES_SIZE: usize = 60;

/// `CUpti_Profiler_Host_ConfigAddMetrics_Params`.
#[repr(C)]
pub struct HostConfigAddMetrics {
    pub head: Head,
    pub host_object: Opaque,
    pub metric_names: *const *const c_char,
    pub metric_count: usize,
}
pub const HOST_CONFIG_ADD_METRICS_SIZE: usize = 40;

/// `CUpti_Profiler_Host_GetConfigImageSize_Params`.
#[repr(C)]
pub struct HostConfigImageSize {
    pub head: Head,
    pub host_object: Opaque,
    pub image_size: usize,
}
pub const HOST_CONFIG_IMAGE_SIZE_SIZE: usize = 32;

/// `CUpti_Profiler_Host_GetConfigImage_Params`.
#[repr(C)]
pub struct HostConfigImage {
    pub head: Head,
    pub host_object: Opaque,
    pub image_size: usize,
    pub image: *mut u8,
}
pub const HOST_CONFIG_IMAGE_SIZE: usize = 40;

/// `CUpti_Profiler_Host_GetNumOfPasses_Params`.
#[repr(C)]
pub struct HostPassCount {
    pub head: Head,
    pub image_size: usize,
    pub image: *mut u8,
    pub passes: usize,
}
pub const HOST_PASS_COUNT_SIZE: usize = 40;

/// `CUpti_Profiler_Host_EvaluateToGpuValues_Params`.
#[repr(C)]
pub struct HostEvaluate {
    pub head: Head,
    pub host_object: Opaque,
    pub counter_data: *const u8,
    pub counter_data_size: usize,
    pub range_index: usize,
    pub metric_names: *const *const c_char,
    pub metric_count: usize,
    pub values: *mut f64,
}
pub const HOST_EVALUATE_SIZE: usize = 72;

/// `CUpti_RangeProfiler_Enable_Params` (without CUDA 13.4's cache-control mode: no cache reset).
#[repr(C)]
pub struct RangeEnable {
    pub head: Head,
    pub context: RawContext,
    pub range_profiler: Opaque,
}
pub const RANGE_ENABLE_SIZE: usize = 32;

/// `CUpti_RangeProfiler_Disable_Params`, `_Start_Params` and `_PopRange_Params`: the object alone.
#[repr(C)]
pub struct RangeObject {
    pub head: Head,
    pub range_profiler: Opaque,
}
pub const RANGE_OBJECT_SIZE: usize = 24;

/// `CUpti_RangeProfiler_Stop_Params`.
#[repr(C)]
pub struct RangeStop {
    pub head: Head,
    pub range_profiler: Opaque,
    pub pass_index: usize,
    pub target_nesting_level: usize,
    pub all_passes_submitted: u8,
}
pub const RANGE_STOP_SIZE: usize = 41;

/// `CUpti_RangeProfiler_PushRange_Params`.
#[repr(C)]
pub struct RangePush {
    pub head: Head,
    pub range_profiler: Opaque,
    pub range_name: *const c_char,
}
pub const RANGE_PUSH_SIZE: usize = 32;

/// `CUpti_RangeProfiler_DecodeData_Params`.
#[repr(C)]
pub struct RangeDecode {
    pub head: Head,
    pub range_profiler: Opaque,
    pub ranges_dropped: usize,
}
pub const RANGE_DECODE_SIZE: usize = 32;

/// `CUpti_RangeProfiler_GetCounterDataSize_Params`.
#[repr(C)]
pub struct RangeCounterDataSize {
    pub head: Head,
    pub range_profiler: Opaque,
    pub metric_names: *const *const c_char,
    pub metric_count: usize,
    pub max_ranges: usize,
    pub max_range_tree_nodes: u32,
    pub counter_data_size: usize,
}
pub const RANGE_COUNTER_DATA_SIZE_SIZE: usize = 64;

/// `CUpti_RangeProfiler_CounterDataImage_Initialize_Params`.
#[repr(C)]
pub struct RangeCounterDataInitialize {
    pub head: Head,
    pub range_profiler: Opaque,
    pub counter_data_size: usize,
    pub counter_data: *mut u8,
}
pub const RANGE_COUNTER_DATA_INITIALIZE_SIZE: usize = 40;

/// `CUpti_RangeProfiler_GetCounterDataInfo_Params`.
#[repr(C)]
pub struct RangeCounterDataInfo {
    pub head: Head,
    pub counter_data: *const u8,
    pub counter_data_size: usize,
    pub range_count: usize,
}
pub const RANGE_COUNTER_DATA_INFO_SIZE: usize = 40;

/// `CUpti_RangeProfiler_SetConfig_Params`. Note the nesting fields' order
/// (levels, then the lowest level), unlike the older profiler's struct.
#[repr(C)]
pub struct RangeSetConfig {
    pub head: Head,
    pub range_profiler: Opaque,
    pub config_size: usize,
    pub config: *const u8,
    pub counter_data_size: usize,
    pub counter_data: *mut u8,
    pub range_mode: u32,
    pub replay_mode: u32,
    pub max_ranges_per_pass: usize,
    pub nesting_levels: u16,
    pub min_nesting_level: u16,
    pub pass_index: usize,
    pub target_nesting_level: u16,
}
pub const RANGE_SET_CONFIG_SIZE: usize = 90;

/// The text of a C string CUPTI owns, or `None` for a null pointer.
///
/// # Safety
/// `text` must be null or a NUL-terminated string that stays valid for the call.
pub unsafe fn text_of(text: *const c_char) -> Option<String> {
    if text.is_null() {
        None
    } else {
        // SAFETY: non-null and NUL-terminated (the caller's contract).
        Some(unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy().into_owned())
    }
}

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};

    use super::*;

    /// `CUPTI_PROFILER_STRUCT_SIZE`: the last field's offset plus its size.
    macro_rules! struct_size {
        ($t:ty, $last:ident, $last_ty:ty) => {
            offset_of!($t, $last) + size_of::<$last_ty>()
        };
    }

    #[test]
    fn parameter_structs_have_the_headers_sizes() {
        // The sizes the CUDA 12.9 headers' CUPTI_PROFILER_STRUCT_SIZE gives (checked with a C compiler).
        assert_eq!(struct_size!(ProfilerInitialize, head, Head), PROFILER_INITIALIZE_SIZE);
        assert_eq!(
            struct_size!(DeviceChipName, chip_name, *const c_char),
            DEVICE_CHIP_NAME_SIZE
        );
        assert_eq!(
            struct_size!(CounterAvailability, image, *mut u8),
            COUNTER_AVAILABILITY_SIZE
        );
        assert_eq!(struct_size!(DeviceSupported, api, u32), DEVICE_SUPPORTED_SIZE);
        assert_eq!(struct_size!(HostInitialize, host_object, Opaque), HOST_INITIALIZE_SIZE);
        assert_eq!(
            struct_size!(HostDeinitialize, host_object, Opaque),
            HOST_DEINITIALIZE_SIZE
        );
        assert_eq!(
            struct_size!(HostBaseMetrics, metric_count, usize),
            HOST_BASE_METRICS_SIZE
        );
        assert_eq!(
            struct_size!(HostMetricProperties, metric_type, u32),
            HOST_METRIC_PROPERTIES_SIZE
        );
        assert_eq!(
            struct_size!(HostConfigAddMetrics, metric_count, usize),
            HOST_CONFIG_ADD_METRICS_SIZE
        );
        assert_eq!(
            struct_size!(HostConfigImageSize, image_size, usize),
            HOST_CONFIG_IMAGE_SIZE_SIZE
        );
        assert_eq!(struct_size!(HostConfigImage, image, *mut u8), HOST_CONFIG_IMAGE_SIZE);
        assert_eq!(struct_size!(HostPassCount, passes, usize), HOST_PASS_COUNT_SIZE);
        assert_eq!(struct_size!(HostEvaluate, values, *mut f64), HOST_EVALUATE_SIZE);
        assert_eq!(struct_size!(RangeEnable, range_profiler, Opaque), RANGE_ENABLE_SIZE);
        assert_eq!(struct_size!(RangeObject, range_profiler, Opaque), RANGE_OBJECT_SIZE);
        assert_eq!(struct_size!(RangeStop, all_passes_submitted, u8), RANGE_STOP_SIZE);
        assert_eq!(struct_size!(RangePush, range_name, *const c_char), RANGE_PUSH_SIZE);
        assert_eq!(struct_size!(RangeDecode, ranges_dropped, usize), RANGE_DECODE_SIZE);
        assert_eq!(
            struct_size!(RangeCounterDataSize, counter_data_size, usize),
            RANGE_COUNTER_DATA_SIZE_SIZE
        );
        assert_eq!(
            struct_size!(RangeCounterDataInitialize, counter_data, *mut u8),
            RANGE_COUNTER_DATA_INITIALIZE_SIZE
        );
        assert_eq!(
            struct_size!(RangeCounterDataInfo, range_count, usize),
            RANGE_COUNTER_DATA_INFO_SIZE
        );
        assert_eq!(
            struct_size!(RangeSetConfig, target_nesting_level, u16),
            RANGE_SET_CONFIG_SIZE
        );
    }

    #[test]
    fn fields_sit_where_the_headers_put_them() {
        // The fields after an enum or a u32/u16 are where padding could go wrong.
        assert_eq!(offset_of!(HostInitialize, chip_name), 24);
        assert_eq!(offset_of!(HostBaseMetrics, metric_names), 32);
        assert_eq!(offset_of!(RangeSetConfig, range_mode), 56);
        assert_eq!(offset_of!(RangeSetConfig, replay_mode), 60);
        assert_eq!(offset_of!(RangeSetConfig, min_nesting_level), 74);
        assert_eq!(offset_of!(RangeSetConfig, pass_index), 80);
        assert_eq!(offset_of!(RangeCounterDataSize, max_range_tree_nodes), 48);
        assert_eq!(offset_of!(RangeCounterDataSize, counter_data_size), 56);
        assert_eq!(offset_of!(DeviceSupported, supported), 20);
    }

    #[test]
    fn c_text_is_read_up_to_its_nul() {
        let text = c"GH100";
        // SAFETY: a NUL-terminated literal.
        assert_eq!(unsafe { text_of(text.as_ptr()) }.as_deref(), Some("GH100"));
        // SAFETY: null is allowed.
        assert_eq!(unsafe { text_of(std::ptr::null()) }, None);
    }
}
