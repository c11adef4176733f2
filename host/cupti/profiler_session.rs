//! CUPTI's profiler interface, initialized (`cuptiProfilerInitialize`) for
//! as long as a [`ProfilerSession`] lives, and what it says of a device:
//! whether it can be profiled, its chip name and its counter availability.

use std::sync::Arc;

use super::cupti_error::{CuptiError, CuptiResult};
use super::ffi::{
    API_RANGE_PROFILING, COUNTER_AVAILABILITY_SIZE, CounterAvailability, DEVICE_CHIP_NAME_SIZE, DEVICE_SUPPORTED_SIZE,
    DeviceChipName, DeviceSupported, Head, PROFILER_INITIALIZE_SIZE, ProfilerInitialize, RawContext,
    SUPPORT_LEVEL_DISABLED, SUPPORT_LEVEL_SUPPORTED, SUPPORT_LEVEL_UNSUPPORTED, text_of,
};
use super::library::Cupti;

/// The profiler interface, initialized; de-initialized when dropped.
pub struct ProfilerSession {
    cupti: Arc<Cupti>,
}

impl ProfilerSession {
    /// `cuptiProfilerInitialize`.
    pub fn begin(cupti: &Arc<Cupti>) -> CuptiResult<Self> {
        let mut params = ProfilerInitialize {
            head: Head::of(PROFILER_INITIALIZE_SIZE),
        };
        // SAFETY: a valid parameter struct of the declared size.
        let status = unsafe { (cupti.functions().profiler_initialize)(&mut params) };
        cupti.check("cuptiProfilerInitialize", status)?;
        Ok(Self { cupti: cupti.clone() })
    }

    pub fn cupti(&self) -> &Arc<Cupti> {
        &self.cupti
    }

    /// Why CUPTI cannot profile CUDA device `device`, or `Ok` when it can (or
    /// when this CUPTI cannot say: `cuptiProfilerDeviceSupported` is optional).
    pub fn check_device(&self, device: i32) -> CuptiResult<()> {
        let Some(supported) = self.cupti.functions().device_supported else {
            return Ok(());
        };
        let mut params = DeviceSupported {
            head: Head::of(DEVICE_SUPPORTED_SIZE),
            device,
            supported: 0,
            architecture: 0,
            sli: 0,
            vgpu: 0,
            confidential_compute: 0,
            cmp: 0,
            wsl: 0,
            api: API_RANGE_PROFILING,
        };
        // SAFETY: a valid parameter struct of the declared size.
        let status = unsafe { supported(&mut params) };
        self.cupti.check("cuptiProfilerDeviceSupported", status)?;
        if params.supported == SUPPORT_LEVEL_SUPPORTED {
            return Ok(());
        }
        Err(CuptiError::Unsupported(device_support_reason(&params)))
    }

    /// The chip name CUPTI uses for CUDA device `device` ("GH100" for an H100).
    pub fn chip_name(&self, device: usize) -> CuptiResult<String> {
        let mut params = DeviceChipName {
            head: Head::of(DEVICE_CHIP_NAME_SIZE),
            device_index: device,
            chip_name: std::ptr::null(),
        };
        // SAFETY: a valid parameter struct of the declared size.
        let status = unsafe { (self.cupti.functions().device_chip_name)(&mut params) };
        self.cupti.check("cuptiDeviceGetChipName", status)?;
        // SAFETY: on success CUPTI points at a static NUL-terminated name.
        unsafe { text_of(params.chip_name) }
            .filter(|name| !name.is_empty())
            .ok_or_else(|| CuptiError::Unexpected("cuptiDeviceGetChipName returned no name".into()))
    }

    /// The counter availability image of `context` (which counters other
    /// sessions leave free), in CUPTI's two calls: its size, then its bytes.
    pub fn counter_availability(&self, context: RawContext) -> CuptiResult<Vec<u8>> {
        let call = self.cupti.functions().counter_availability;
        let mut params = CounterAvailability {
            head: Head::of(COUNTER_AVAILABILITY_SIZE),
            context,
            image_size: 0,
            image: std::ptr::null_mut(),
        };
        // SAFETY: a valid parameter struct; a null image asks for the size.
        let status = unsafe { call(&mut params) };
        self.cupti.check("cuptiProfilerGetCounterAvailability (size)", status)?;
        let mut image = vec![0u8; params.image_size];
        params.image = image.as_mut_ptr();
        // SAFETY: the image holds the `image_size` bytes CUPTI asked for.
        let status = unsafe { call(&mut params) };
        self.cupti
            .check("cuptiProfilerGetCounterAvailability (image)", status)?;
        image.truncate(params.image_size);
        Ok(image)
    }
}

impl Drop for ProfilerSession {
    fn drop(&mut self) {
        let mut params = ProfilerInitialize {
            head: Head::of(PROFILER_INITIALIZE_SIZE),
        };
        // SAFETY: paired with the successful cuptiProfilerInitialize of `begin`.
        let _ = unsafe { (self.cupti.functions().profiler_deinitialize)(&mut params) };
    }
}

/// Which of CUPTI's device checks failed, in words.
fn device_support_reason(params: &DeviceSupported) -> String {
    let level = |v: u32| match v {
        SUPPORT_LEVEL_UNSUPPORTED => Some("unsupported"),
        SUPPORT_LEVEL_DISABLED => Some("disabled"),
        SUPPORT_LEVEL_SUPPORTED => None,
        _ => Some("unknown"),
    };
    let checks = [
        (
            "architecture (needs compute capability 7.0 or newer)",
            params.architecture,
        ),
        ("SLI", params.sli),
        ("vGPU", params.vgpu),
        ("confidential computing", params.confidential_compute),
        ("crypto-mining processor", params.cmp),
        ("WSL", params.wsl),
    ];
    let failed: Vec<String> = checks
        .iter()
        .filter_map(|(what, v)| level(*v).map(|l| format!("{what}: {l}")))
        .collect();
    if failed.is_empty() {
        "cuptiProfilerDeviceSupported says no, without a reason".into()
    } else {
        format!("cuptiProfilerDeviceSupported: {}", failed.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::{DeviceSupported, device_support_reason};
    use crate::cupti::ffi::Head;

    #[test]
    fn an_unsupported_device_names_the_failed_checks() {
        let params = DeviceSupported {
            head: Head::of(52),
            device: 0,
            supported: 1,
            architecture: 3,
            sli: 3,
            vgpu: 2,
            confidential_compute: 3,
            cmp: 3,
            wsl: 1,
            api: 0,
        };
        assert_eq!(
            device_support_reason(&params),
            "cuptiProfilerDeviceSupported: vGPU: disabled, WSL: unsupported"
        );
    }
}
