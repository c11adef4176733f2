//! The telemetry of a run as the report stores it: per GPU its NVML facts,
//! the whole run's summary and one summary per experiment; or, without
//! NVML, why there is none.

use serde::{Deserialize, Serialize};

use crate::facts::CudaOrdinal;

use super::{Interconnect, NvmlDeviceFacts, SampleRound, TelemetrySummary};

/// One experiment's stretch of the run: the sample rounds from the one taken
/// as it started to the one taken as it ended, both included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperimentWindow {
    pub experiment: String,
    /// The GPU it ran on; `None` for an experiment of the whole node (every GPU is summarised).
    pub device: Option<usize>,
    pub first_round: usize,
    pub last_round: usize,
}

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

    /// Summarises `rounds` (each with one sample per GPU of `gpus`, in that order) for the
    /// whole run and for each window.
    pub fn build(
        source: String,
        interval_ms: u64,
        notes: Vec<String>,
        gpus: Vec<(CudaOrdinal, NvmlDeviceFacts)>,
        rounds: &[SampleRound],
        windows: &[ExperimentWindow],
    ) -> Self {
        let devices = gpus
            .into_iter()
            .enumerate()
            .map(|(index, (ordinal, facts))| {
                let samples = |range: &[SampleRound]| -> Vec<_> {
                    range.iter().filter_map(|r| r.samples.get(index).copied()).collect()
                };
                let experiments = windows
                    .iter()
                    .filter(|w| w.device.is_none_or(|d| d == ordinal.0))
                    .map(|w| {
                        let last = w.last_round.min(rounds.len().saturating_sub(1));
                        let range = rounds.get(w.first_round..=last).unwrap_or(&[]);
                        ExperimentTelemetry {
                            experiment: w.experiment.clone(),
                            summary: TelemetrySummary::of(&samples(range)),
                        }
                    })
                    .collect();
                DeviceTelemetry {
                    ordinal,
                    facts,
                    run: TelemetrySummary::of(&samples(rounds)),
                    experiments,
                }
            })
            .collect();
        Self {
            source,
            interval_ms,
            notes,
            devices,
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
    use super::{CudaOrdinal, ExperimentWindow, TelemetryRecord};
    use crate::nvml::{MatchedBy, NvmlDeviceFacts, PcieLinkFacts, SampleRound, TelemetrySample};

    fn facts(name: &str) -> NvmlDeviceFacts {
        NvmlDeviceFacts {
            name: name.into(),
            uuid: String::new(),
            pci: None,
            matched_by: MatchedBy::Uuid,
            pcie: PcieLinkFacts::default(),
            nvlinks: Vec::new(),
            max_sm_clock_mhz: Some(1980),
            max_memory_clock_mhz: None,
            power_limit_w: Some(700.0),
        }
    }

    fn round(at_ms: f64, sm: [u32; 2]) -> SampleRound {
        SampleRound {
            at_ms,
            samples: sm
                .iter()
                .map(|&mhz| TelemetrySample {
                    sm_clock_mhz: Some(mhz),
                    ..TelemetrySample::default()
                })
                .collect(),
        }
    }

    #[test]
    fn windows_summarise_their_own_gpu_or_every_gpu_for_the_node() {
        let rounds = [
            round(0.0, [345, 345]),
            round(100.0, [1980, 345]),
            round(200.0, [1755, 345]),
            round(300.0, [345, 1980]),
            round(400.0, [1980, 1980]),
        ];
        let windows = [
            ExperimentWindow {
                experiment: "offset".into(),
                device: Some(0),
                first_round: 1,
                last_round: 2,
            },
            ExperimentWindow {
                experiment: "offset".into(),
                device: Some(3),
                first_round: 3,
                last_round: 3,
            },
            ExperimentWindow {
                experiment: "peer".into(),
                device: None,
                first_round: 4,
                last_round: 99,
            },
        ];
        // CUDA ordinals 0 and 3, sampled in that order.
        let record = TelemetryRecord::build(
            "NVML".into(),
            100,
            Vec::new(),
            vec![(CudaOrdinal(0), facts("a")), (CudaOrdinal(3), facts("b"))],
            &rounds,
            &windows,
        );
        let gpu0 = record.device(CudaOrdinal(0)).unwrap();
        assert_eq!(gpu0.run.samples, 5);
        assert_eq!(gpu0.run.sm_clock_mhz.unwrap().min, 345.0);
        let offset = gpu0.during("offset").unwrap();
        assert_eq!(offset.samples, 2);
        assert_eq!(
            (offset.sm_clock_mhz.unwrap().min, offset.sm_clock_mhz.unwrap().max),
            (1755.0, 1980.0)
        );
        assert_eq!(
            gpu0.during("peer").unwrap().samples,
            1,
            "a window past the last round is cut short"
        );
        let gpu3 = record.device(CudaOrdinal(3)).unwrap();
        assert_eq!(gpu3.during("offset").unwrap().sm_clock_mhz.unwrap().median, 1980.0);
        assert_eq!(gpu3.experiments.len(), 2);
        assert!(record.device(CudaOrdinal(1)).is_none());
    }

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
