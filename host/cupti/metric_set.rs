//! The metrics a collection asks for on one chip: the ones the chip has,
//! scheduled into a configuration image, and the ones it refused with why.
//! Each metric falls back on its own: one the chip lacks is refused, never
//! the whole set.

use std::sync::Arc;

use super::cupti_error::{CuptiError, CuptiResult};
use super::library::Cupti;
use super::metric_host::MetricHost;

/// A chip's configuration for a list of metrics.
#[derive(Clone, Debug)]
pub struct MetricSet {
    pub chip: String,
    /// The metrics scheduled, in the order asked.
    pub metrics: Vec<String>,
    /// Metrics asked for but not scheduled, each with the reason.
    pub refused: Vec<(String, String)>,
    /// The configuration image (`cuptiProfilerHostGetConfigImage`).
    pub config: Vec<u8>,
    /// Replays of the workload the configuration needs.
    pub passes: usize,
}

impl MetricSet {
    /// Schedules as many of `wanted` as `chip` has; `trace` hears each step.
    pub fn build(cupti: &Arc<Cupti>, chip: &str, wanted: &[&str], trace: &mut dyn FnMut(&str)) -> CuptiResult<Self> {
        let mut refused = Vec::new();
        let mut candidates = Vec::new();
        {
            let host = MetricHost::new(cupti, chip)?;
            for &metric in wanted {
                match host.properties(metric) {
                    Ok(p) => {
                        trace(&format!(
                            "metric {metric}: {} [{}], {} ({})",
                            p.kind, p.dimension_unit, p.description, p.hardware_unit
                        ));
                        candidates.push(metric.to_string());
                    }
                    Err(e) if e.is_unknown_metric() => {
                        trace(&format!("metric {metric}: not a metric of {chip}: {e}"));
                        refused.push((metric.to_string(), format!("not a metric of {chip} ({e})")));
                    }
                    Err(e) => {
                        // Properties are only a filter: scheduling decides.
                        trace(&format!(
                            "metric {metric}: properties unknown ({e}); trying to schedule it"
                        ));
                        candidates.push(metric.to_string());
                    }
                }
            }
        }
        let scheduled = {
            let host = MetricHost::new(cupti, chip)?;
            host.add_metrics(&candidates).map(|()| host)
        };
        let host = match scheduled {
            Ok(host) => host,
            Err(all) => {
                trace(&format!(
                    "scheduling all {} metrics at once failed ({all}); one by one",
                    candidates.len()
                ));
                let mut kept = Vec::new();
                for metric in candidates {
                    let alone = MetricHost::new(cupti, chip)?;
                    match alone.add_metrics(&[&metric]) {
                        Ok(()) => kept.push(metric),
                        Err(e) => {
                            trace(&format!("metric {metric}: refused ({e})"));
                            refused.push((metric, format!("CUPTI cannot schedule it on {chip} ({e})")));
                        }
                    }
                }
                candidates = kept;
                let host = MetricHost::new(cupti, chip)?;
                if !candidates.is_empty() {
                    host.add_metrics(&candidates)?;
                }
                host
            }
        };
        if candidates.is_empty() {
            return Err(CuptiError::Unexpected(format!(
                "none of the {} metrics asked for can be collected on {chip}: {}",
                wanted.len(),
                refused
                    .iter()
                    .map(|(m, why)| format!("{m}: {why}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        let mut config = host.config_image()?;
        let passes = host.passes(&mut config)?;
        trace(&format!(
            "configuration image: {} bytes, {} metrics, {passes} pass(es)",
            config.len(),
            candidates.len()
        ));
        Ok(Self {
            chip: chip.to_string(),
            metrics: candidates,
            refused,
            config,
            passes,
        })
    }
}
