//! The telemetry of a run as the report stores it: per GPU its NVML facts,
//! the whole run's summary and one summary per experiment; or, without
//! NVML, why there is none. The NVML layer builds it from its sample rounds
//! (`TelemetryRecord::build` in host/nvml/).

use serde::{Deserialize, Serialize};

use crate::facts::CudaOrdinal;

use super::{Interconnect, NvmlDeviceFacts, TelemetrySummary};

/// A GPU's telemetry during one experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentTelemetry {
    pub experiment: String,
    pub summary: TelemetrySummary,
}

/// One GPU's facts and telemetry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceTelemetry {
    /// The CUDA ordinal, as in the report's devices.
    pub ordinal: CudaOrdinal,
    pub facts: NvmlDeviceFacts,
    /// The whole run, from before the first experiment to after the last.
    pub run: TelemetrySummary,
    /// Each experiment that ran on this GPU (or on the node), in run order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub experiments: Vec<ExperimentTelemetry>,
}

impl DeviceTelemetry {
    /// This GPU's summary during `experiment`.
    pub fn during(&self, experiment: &str) -> Option<&TelemetrySummary> {
        self.experiments
            .iter()
            .find(|e| e.experiment == experiment)
            .map(|e| &e.summary)
    }
}

/// The telemetry section of a report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TelemetryRecord {
    /// What read it ("NVML (driver …, NVML …; libnvidia-ml.so.1)"); empty when nothing did.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// Time between samples (each experiment's start and end are sampled too).
    #[serde(default)]
    pub interval_ms: u64,
    /// Why there is no telemetry, or for which GPUs there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<DeviceTelemetry>,
}

impl TelemetryRecord {
    /// No telemetry, and why (no NVML on this machine, the sampler could not start).
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            notes: vec![format!("no telemetry: {}", reason.into())],
            ..Self::default()
        }
    }

    pub fn device(&self, ordinal: CudaOrdinal) -> Option<&DeviceTelemetry> {
        self.devices.iter().find(|d| d.ordinal == ordinal)
    }

    /// The links between the recorded GPUs.
    pub fn interconnect(&self) -> Interconnect<'_> {
        Interconnect::new(self.devices.iter().map(|d| (d.ordinal, &d.facts)))
    }
}

#[cfg(test)]
mod tests {
    use super::TelemetryRecord;

    #[test]
    fn without_nvml_the_record_is_a_note() {
        let record = TelemetryRecord::unavailable("NVML is not available: libnvidia-ml could not be loaded");
        assert!(record.devices.is_empty());
        assert_eq!(
            record.notes,
            vec!["no telemetry: NVML is not available: libnvidia-ml could not be loaded".to_string()]
        );
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<TelemetryRecord>(&json).unwrap(), record);
    }
}
