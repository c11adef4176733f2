//! The profiler host object (`CUpti_Profiler_Host_Object`): CUPTI's host-side
//! metric library for one chip. It knows the chip's metrics, schedules a
//! list of them into a configuration image, and turns collected counter data
//! into metric values. Deinitialized when dropped.

use std::ffi::{CString, c_char};
use std::sync::Arc;

use super::cupti_error::{CuptiError, CuptiResult};
use super::ffi::{
    HOST_BASE_METRICS_SIZE, HOST_CONFIG_ADD_METRICS_SIZE, HOST_CONFIG_IMAGE_SIZE, HOST_CONFIG_IMAGE_SIZE_SIZE,
    HOST_DEINITIALIZE_SIZE, HOST_EVALUATE_SIZE, HOST_INITIALIZE_SIZE, HOST_METRIC_PROPERTIES_SIZE,
    HOST_PASS_COUNT_SIZE, Head, HostBaseMetrics, HostConfigAddMetrics, HostConfigImage, HostConfigImageSize,
    HostDeinitialize, HostEvaluate, HostInitialize, HostMetricProperties, HostPassCount, METRIC_TYPE_COUNTER,
    METRIC_TYPE_RATIO, METRIC_TYPE_THROUGHPUT, Opaque, PROFILER_TYPE_RANGE_PROFILER, text_of,
};
use super::library::{CNames, Cupti};

/// What the host library says about one metric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricProperties {
    pub description: String,
    pub hardware_unit: String,
    pub dimension_unit: String,
    /// "counter", "ratio" or "throughput".
    pub kind: &'static str,
}

/// The host object of one chip, for the range profiler.
pub struct MetricHost {
    cupti: Arc<Cupti>,
    object: Opaque,
    chip: String,
}

// SAFETY: the host object is host memory CUPTI allocated for us, tied to no thread; the suite
// uses it from one thread at a time (behind a Mutex where shared).
unsafe impl Send for MetricHost {}

impl MetricHost {
    /// `cuptiProfilerHostInitialize` for `chip` ("GH100"), without a counter
    /// availability image (every metric of the chip is offered).
    pub fn new(cupti: &Arc<Cupti>, chip: &str) -> CuptiResult<Self> {
        let name = CString::new(chip.replace('\0', "")).expect("NULs removed");
        let mut params = HostInitialize {
            head: Head::of(HOST_INITIALIZE_SIZE),
            profiler_type: PROFILER_TYPE_RANGE_PROFILER,
            chip_name: name.as_ptr(),
            counter_availability_image: std::ptr::null(),
            host_object: std::ptr::null_mut(),
        };
        // SAFETY: a valid parameter struct; the chip name outlives the call.
        let status = unsafe { (cupti.functions().host_initialize)(&mut params) };
        cupti.check("cuptiProfilerHostInitialize", status)?;
        if params.host_object.is_null() {
            return Err(CuptiError::Unexpected(
                "cuptiProfilerHostInitialize returned no host object".into(),
            ));
        }
        Ok(Self {
            cupti: cupti.clone(),
            object: params.host_object,
            chip: chip.to_string(),
        })
    }

    pub fn chip(&self) -> &str {
        &self.chip
    }

    /// The chip's base counter metrics (names without a roll-up such as `.sum`).
    pub fn base_counter_metrics(&self) -> CuptiResult<Vec<String>> {
        let mut params = HostBaseMetrics {
            head: Head::of(HOST_BASE_METRICS_SIZE),
            host_object: self.object,
            metric_type: METRIC_TYPE_COUNTER,
            metric_names: std::ptr::null(),
            metric_count: 0,
        };
        // SAFETY: a valid parameter struct; CUPTI owns the list it returns.
        let status = unsafe { (self.cupti.functions().host_base_metrics)(&mut params) };
        self.cupti.check("cuptiProfilerHostGetBaseMetrics", status)?;
        if params.metric_names.is_null() {
            return Ok(Vec::new());
        }
        Ok((0..params.metric_count)
            // SAFETY: `metric_count` pointers to NUL-terminated names, owned by the host object.
            .filter_map(|i| unsafe { text_of(*params.metric_names.add(i)) })
            .collect())
    }

    /// The properties of `metric` ("dram__bytes_read.sum"; CUPTI releases
    /// that want the base name get it with the roll-up removed).
    pub fn properties(&self, metric: &str) -> CuptiResult<MetricProperties> {
        match self.properties_of(metric) {
            Err(e) if e.is_unknown_metric() => match metric.rsplit_once('.') {
                Some((base, _)) => self.properties_of(base),
                None => Err(e),
            },
            other => other,
        }
    }

    fn properties_of(&self, metric: &str) -> CuptiResult<MetricProperties> {
        let name = CString::new(metric.replace('\0', "")).expect("NULs removed");
        let mut params = HostMetricProperties {
            head: Head::of(HOST_METRIC_PROPERTIES_SIZE),
            host_object: self.object,
            metric_name: name.as_ptr(),
            description: std::ptr::null(),
            hardware_unit: std::ptr::null(),
            dimension_unit: std::ptr::null(),
            metric_type: 0,
        };
        // SAFETY: a valid parameter struct; the name outlives the call.
        let status = unsafe { (self.cupti.functions().host_metric_properties)(&mut params) };
        self.cupti.check("cuptiProfilerHostGetMetricProperties", status)?;
        let text = |p: *const c_char| {
            // SAFETY: null or a NUL-terminated string owned by the host object.
            unsafe { text_of(p) }.unwrap_or_default()
        };
        Ok(MetricProperties {
            description: text(params.description),
            hardware_unit: text(params.hardware_unit),
            dimension_unit: text(params.dimension_unit),
            kind: match params.metric_type {
                METRIC_TYPE_COUNTER => "counter",
                METRIC_TYPE_RATIO => "ratio",
                METRIC_TYPE_THROUGHPUT => "throughput",
                _ => "unknown",
            },
        })
    }

    /// Schedules `metrics` (`cuptiProfilerHostConfigAddMetrics`); a host object
    /// accumulates the metrics of every call.
    pub fn add_metrics<S: AsRef<str>>(&self, metrics: &[S]) -> CuptiResult<()> {
        let names = CNames::new(metrics);
        let mut params = HostConfigAddMetrics {
            head: Head::of(HOST_CONFIG_ADD_METRICS_SIZE),
            host_object: self.object,
            metric_names: names.as_ptr(),
            metric_count: names.len(),
        };
        // SAFETY: a valid parameter struct; the names outlive the call.
        let status = unsafe { (self.cupti.functions().host_config_add_metrics)(&mut params) };
        self.cupti.check("cuptiProfilerHostConfigAddMetrics", status)
    }

    /// The configuration image of the metrics added so far.
    pub fn config_image(&self) -> CuptiResult<Vec<u8>> {
        let mut size = HostConfigImageSize {
            head: Head::of(HOST_CONFIG_IMAGE_SIZE_SIZE),
            host_object: self.object,
            image_size: 0,
        };
        // SAFETY: a valid parameter struct.
        let status = unsafe { (self.cupti.functions().host_config_image_size)(&mut size) };
        self.cupti.check("cuptiProfilerHostGetConfigImageSize", status)?;
        if size.image_size == 0 {
            return Err(CuptiError::Unexpected(
                "cuptiProfilerHostGetConfigImageSize: an empty configuration image".into(),
            ));
        }
        let mut image = vec![0u8; size.image_size];
        let mut params = HostConfigImage {
            head: Head::of(HOST_CONFIG_IMAGE_SIZE),
            host_object: self.object,
            image_size: image.len(),
            image: image.as_mut_ptr(),
        };
        // SAFETY: the buffer holds the size CUPTI asked for.
        let status = unsafe { (self.cupti.functions().host_config_image)(&mut params) };
        self.cupti.check("cuptiProfilerHostGetConfigImage", status)?;
        Ok(image)
    }

    /// How many passes (replays of the workload) `config` needs.
    pub fn passes(&self, config: &mut [u8]) -> CuptiResult<usize> {
        let mut params = HostPassCount {
            head: Head::of(HOST_PASS_COUNT_SIZE),
            image_size: config.len(),
            image: config.as_mut_ptr(),
            passes: 0,
        };
        // SAFETY: a valid parameter struct over the caller's image.
        let status = unsafe { (self.cupti.functions().host_pass_count)(&mut params) };
        self.cupti.check("cuptiProfilerHostGetNumOfPasses", status)?;
        Ok(params.passes)
    }

    /// The value of each of `metrics` in range `range` of `counter_data`.
    pub fn evaluate<S: AsRef<str>>(&self, counter_data: &[u8], range: usize, metrics: &[S]) -> CuptiResult<Vec<f64>> {
        let names = CNames::new(metrics);
        let mut values = vec![f64::NAN; names.len()];
        let mut params = HostEvaluate {
            head: Head::of(HOST_EVALUATE_SIZE),
            host_object: self.object,
            counter_data: counter_data.as_ptr(),
            counter_data_size: counter_data.len(),
            range_index: range,
            metric_names: names.as_ptr(),
            metric_count: names.len(),
            values: values.as_mut_ptr(),
        };
        // SAFETY: a valid parameter struct; CUPTI writes one double per name.
        let status = unsafe { (self.cupti.functions().host_evaluate)(&mut params) };
        self.cupti.check("cuptiProfilerHostEvaluateToGpuValues", status)?;
        Ok(values)
    }
}

impl Drop for MetricHost {
    fn drop(&mut self) {
        let mut params = HostDeinitialize {
            head: Head::of(HOST_DEINITIALIZE_SIZE),
            host_object: self.object,
        };
        // SAFETY: the object cuptiProfilerHostInitialize returned, released once.
        let _ = unsafe { (self.cupti.functions().host_deinitialize)(&mut params) };
    }
}
