//! The NVML layer fills the report's telemetry record from its sample rounds:
//! per GPU the whole run's summary and one summary per experiment.

use super::SampleRound;
use crate::facts::{
    CudaOrdinal, DeviceTelemetry, ExperimentTelemetry, NvmlDeviceFacts, TelemetryRecord, TelemetrySummary,
};

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

impl TelemetryRecord {
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
}

#[cfg(test)]
mod tests {
    use super::{CudaOrdinal, ExperimentWindow, SampleRound, TelemetryRecord};
    use crate::facts::{MatchedBy, NvmlDeviceFacts, PcieLinkFacts, TelemetrySample};

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
}
