//! The range profiler on one CUDA context (`CUpti_RangeProfiler_Object`):
//! enabled when made, disabled when dropped. It is configured with a
//! configuration image and a counter-data image, then collects the
//! counters of every range pushed and popped between `start` and `stop`.

use std::ffi::CStr;

use super::cupti_error::{CuptiError, CuptiResult};
use super::ffi::{
    Head, Opaque, RANGE_COUNTER_DATA_INFO_SIZE, RANGE_COUNTER_DATA_INITIALIZE_SIZE, RANGE_COUNTER_DATA_SIZE_SIZE,
    RANGE_DECODE_SIZE, RANGE_ENABLE_SIZE, RANGE_OBJECT_SIZE, RANGE_PUSH_SIZE, RANGE_SET_CONFIG_SIZE, RANGE_STOP_SIZE,
    RangeCounterDataInfo, RangeCounterDataInitialize, RangeCounterDataSize, RangeDecode, RangeEnable, RangeObject,
    RangePush, RangeSetConfig, RangeStop, RawContext, USER_RANGE, USER_REPLAY,
};
use super::library::{CNames, Cupti};

/// What `cuptiRangeProfilerStop` says about the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassEnd {
    /// The pass just ended (counted from 0).
    pub pass_index: usize,
    /// Whether every pass the configuration needs has been submitted.
    pub all_passes_submitted: bool,
}

/// The range profiler, enabled on one context.
pub struct RangeProfiler<'a> {
    cupti: &'a Cupti,
    object: Opaque,
}

impl<'a> RangeProfiler<'a> {
    /// `cuptiRangeProfilerEnable` on `context` (no cache reset between passes).
    pub fn enable(cupti: &'a Cupti, context: RawContext) -> CuptiResult<Self> {
        let mut params = RangeEnable {
            head: Head::of(RANGE_ENABLE_SIZE),
            context,
            range_profiler: std::ptr::null_mut(),
        };
        // SAFETY: a valid parameter struct; `context` is a live context (the caller's).
        let status = unsafe { (cupti.functions().range_enable)(&mut params) };
        cupti.check("cuptiRangeProfilerEnable", status)?;
        if params.range_profiler.is_null() {
            return Err(CuptiError::Unexpected(
                "cuptiRangeProfilerEnable returned no range profiler object".into(),
            ));
        }
        Ok(Self {
            cupti,
            object: params.range_profiler,
        })
    }

    /// A counter-data image for `metrics` with room for `ranges` ranges, initialized.
    pub fn counter_data_image<S: AsRef<str>>(&self, metrics: &[S], ranges: usize) -> CuptiResult<Vec<u8>> {
        let names = CNames::new(metrics);
        let mut size = RangeCounterDataSize {
            head: Head::of(RANGE_COUNTER_DATA_SIZE_SIZE),
            range_profiler: self.object,
            metric_names: names.as_ptr(),
            metric_count: names.len(),
            max_ranges: ranges,
            max_range_tree_nodes: ranges.min(u32::MAX as usize) as u32,
            counter_data_size: 0,
        };
        // SAFETY: a valid parameter struct; the names outlive the call.
        let status = unsafe { (self.cupti.functions().range_counter_data_size)(&mut size) };
        self.cupti.check("cuptiRangeProfilerGetCounterDataSize", status)?;
        if size.counter_data_size == 0 {
            return Err(CuptiError::Unexpected(
                "cuptiRangeProfilerGetCounterDataSize: an empty counter-data image".into(),
            ));
        }
        let mut image = vec![0u8; size.counter_data_size];
        let mut params = RangeCounterDataInitialize {
            head: Head::of(RANGE_COUNTER_DATA_INITIALIZE_SIZE),
            range_profiler: self.object,
            counter_data_size: image.len(),
            counter_data: image.as_mut_ptr(),
        };
        // SAFETY: the buffer holds the size CUPTI asked for.
        let status = unsafe { (self.cupti.functions().range_counter_data_initialize)(&mut params) };
        self.cupti
            .check("cuptiRangeProfilerCounterDataImageInitialize", status)?;
        Ok(image)
    }

    /// Configures user ranges replayed by the caller (`CUPTI_UserRange`,
    /// `CUPTI_UserReplay`), one nesting level, `ranges` ranges per pass.
    ///
    /// CUPTI keeps the two images' addresses: both must stay in place, unchanged
    /// in size, until this profiler is dropped (the caller owns them).
    pub fn set_config(&self, config: &[u8], counter_data: &mut [u8], ranges: usize) -> CuptiResult<()> {
        let mut params = RangeSetConfig {
            head: Head::of(RANGE_SET_CONFIG_SIZE),
            range_profiler: self.object,
            config_size: config.len(),
            config: config.as_ptr(),
            counter_data_size: counter_data.len(),
            counter_data: counter_data.as_mut_ptr(),
            range_mode: USER_RANGE,
            replay_mode: USER_REPLAY,
            max_ranges_per_pass: ranges,
            nesting_levels: 1,
            min_nesting_level: 1,
            pass_index: 0,
            target_nesting_level: 1,
        };
        // SAFETY: a valid parameter struct over the caller's images (see above for their lifetime).
        let status = unsafe { (self.cupti.functions().range_set_config)(&mut params) };
        self.cupti.check("cuptiRangeProfilerSetConfig", status)
    }

    fn object_call(&self, call: &'static str, f: unsafe extern "C" fn(*mut RangeObject) -> u32) -> CuptiResult<()> {
        let mut params = RangeObject {
            head: Head::of(RANGE_OBJECT_SIZE),
            range_profiler: self.object,
        };
        // SAFETY: a valid parameter struct naming this enabled object.
        let status = unsafe { f(&mut params) };
        self.cupti.check(call, status)
    }

    /// Begins a pass (`cuptiRangeProfilerStart`).
    pub fn start(&self) -> CuptiResult<()> {
        self.object_call("cuptiRangeProfilerStart", self.cupti.functions().range_start)
    }

    /// Opens the range `name` (static: CUPTI may keep the pointer until the data is decoded).
    pub fn push(&self, name: &'static CStr) -> CuptiResult<()> {
        let mut params = RangePush {
            head: Head::of(RANGE_PUSH_SIZE),
            range_profiler: self.object,
            range_name: name.as_ptr(),
        };
        // SAFETY: a valid parameter struct; the name is static.
        let status = unsafe { (self.cupti.functions().range_push)(&mut params) };
        self.cupti.check("cuptiRangeProfilerPushRange", status)
    }

    /// Closes the innermost range.
    pub fn pop(&self) -> CuptiResult<()> {
        self.object_call("cuptiRangeProfilerPopRange", self.cupti.functions().range_pop)
    }

    /// Ends a pass (`cuptiRangeProfilerStop`).
    pub fn stop(&self) -> CuptiResult<PassEnd> {
        let mut params = RangeStop {
            head: Head::of(RANGE_STOP_SIZE),
            range_profiler: self.object,
            pass_index: 0,
            target_nesting_level: 0,
            all_passes_submitted: 0,
        };
        // SAFETY: a valid parameter struct naming this enabled object.
        let status = unsafe { (self.cupti.functions().range_stop)(&mut params) };
        self.cupti.check("cuptiRangeProfilerStop", status)?;
        Ok(PassEnd {
            pass_index: params.pass_index,
            all_passes_submitted: params.all_passes_submitted != 0,
        })
    }

    /// Decodes the collected counters into the counter-data image given to
    /// [`set_config`](Self::set_config); returns the ranges dropped for lack of room.
    pub fn decode(&self) -> CuptiResult<usize> {
        let mut params = RangeDecode {
            head: Head::of(RANGE_DECODE_SIZE),
            range_profiler: self.object,
            ranges_dropped: 0,
        };
        // SAFETY: a valid parameter struct naming this enabled object.
        let status = unsafe { (self.cupti.functions().range_decode)(&mut params) };
        self.cupti.check("cuptiRangeProfilerDecodeData", status)?;
        Ok(params.ranges_dropped)
    }
}

impl Drop for RangeProfiler<'_> {
    fn drop(&mut self) {
        // SAFETY: the object cuptiRangeProfilerEnable returned, disabled once.
        let _ = self.object_call("cuptiRangeProfilerDisable", self.cupti.functions().range_disable);
    }
}

/// The ranges a decoded counter-data image holds.
pub fn range_count(cupti: &Cupti, counter_data: &[u8]) -> CuptiResult<usize> {
    let mut params = RangeCounterDataInfo {
        head: Head::of(RANGE_COUNTER_DATA_INFO_SIZE),
        counter_data: counter_data.as_ptr(),
        counter_data_size: counter_data.len(),
        range_count: 0,
    };
    // SAFETY: a valid parameter struct over the caller's image.
    let status = unsafe { (cupti.functions().range_counter_data_info)(&mut params) };
    cupti.check("cuptiRangeProfilerGetCounterDataInfo", status)?;
    Ok(params.range_count)
}
