//! What limits one step of a particle kernel today, from its figures: a pure
//! rule, so the report can say it for every block shape and the rule can be
//! tested without a GPU.

/// One measured step: its block shape, population and figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepFigures {
    pub block: (u32, u32),
    /// Bytes the step reads and writes.
    pub bytes: u64,
    pub ms_per_step: f64,
    /// Effective bandwidth: `bytes` over the step's time, GB/s.
    pub gbps: f64,
}

/// What the rule needs to know of the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuFigures {
    pub peak_gbps: f64,
    pub l2_bytes: u64,
}

/// Effective bandwidth at or above this share of the theoretical peak is DRAM-bound.
pub const BANDWIDTH_BOUND_SHARE: f64 = 0.5;

/// The limit, in a few words with the figure behind them. The first rule
/// that applies:
/// 1. fewer than 32 threads per block: lanes of every warp idle;
/// 2. one thread per block row (`1 × N`): a warp spans 32 rows, and each
///    thread's `float4` sits alone in its 32-byte sector;
/// 3. at least [`BANDWIDTH_BOUND_SHARE`] of the peak: DRAM bandwidth;
/// 4. a working set inside L2: launching and scheduling the step;
/// 5. otherwise: latency (too few bytes in flight for the bandwidth).
pub fn step_limit(step: &StepFigures, gpu: &GpuFigures) -> String {
    let (bx, by) = step.block;
    let threads = bx * by;
    let share = step.gbps / gpu.peak_gbps.max(f64::MIN_POSITIVE);
    if threads < 32 {
        return format!("idle lanes: {threads} of each warp's 32 threads work");
    }
    if bx == 1 {
        return "strided warps: a warp spans 32 rows, 16 of each 32-byte sector used".into();
    }
    if share >= BANDWIDTH_BOUND_SHARE {
        return format!(
            "DRAM bandwidth: {:.0}% of the {:.0} GB/s peak",
            100.0 * share,
            gpu.peak_gbps
        );
    }
    if step.bytes <= gpu.l2_bytes {
        return format!(
            "launch and scheduling: {:.1} µs per step of {:.1} MB, which stays in the {} MB L2",
            step.ms_per_step * 1e3,
            step.bytes as f64 / 1e6,
            gpu.l2_bytes >> 20
        );
    }
    format!("latency: {:.0}% of the peak, too few bytes in flight", 100.0 * share)
}

#[cfg(test)]
mod tests {
    use super::{GpuFigures, StepFigures, step_limit};

    const H100: GpuFigures = GpuFigures {
        peak_gbps: 3352.0,
        l2_bytes: 50 << 20,
    };

    fn step(block: (u32, u32), particles: u64, ms: f64) -> StepFigures {
        let bytes = 80 * particles;
        StepFigures {
            block,
            bytes,
            ms_per_step: ms,
            gbps: bytes as f64 / 1e9 / (ms / 1e3),
        }
    }

    #[test]
    fn each_rule_in_its_order() {
        let large = 4096 * 4096;
        // 1.34 GB in 0.5 ms: 2684 GB/s, 80% of the peak.
        assert_eq!(
            step_limit(&step((16, 16), large, 0.5), &H100),
            "DRAM bandwidth: 80% of the 3352 GB/s peak"
        );
        // Fewer than 32 threads wins over everything, even at full bandwidth.
        assert_eq!(
            step_limit(&step((4, 4), large, 0.5), &H100),
            "idle lanes: 16 of each warp's 32 threads work"
        );
        assert!(step_limit(&step((1, 1), 65536, 0.05), &H100).starts_with("idle lanes: 1 of"));
        assert!(step_limit(&step((1, 256), large, 1.2), &H100).starts_with("strided warps"));
        // 256 x 1 is a row of threads: coalesced.
        assert!(step_limit(&step((256, 1), large, 0.5), &H100).starts_with("DRAM bandwidth"));
        // The notes' population fits in L2 and is far below the peak.
        assert_eq!(
            step_limit(&step((16, 16), 65536, 0.004), &H100),
            "launch and scheduling: 4.0 µs per step of 5.2 MB, which stays in the 50 MB L2"
        );
        // Too large for L2, too slow for the bandwidth.
        assert_eq!(
            step_limit(&step((32, 4), large, 2.0), &H100),
            "latency: 20% of the peak, too few bytes in flight"
        );
    }
}
