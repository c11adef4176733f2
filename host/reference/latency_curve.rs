//! Working sets for the latency curve, and the curve's plateaus read as
//! levels of the memory hierarchy.

/// The largest working set the latency series measures.
pub const LATENCY_MAX_WORKING_SET: u64 = 4 << 30;

/// The smallest.
pub const LATENCY_MIN_WORKING_SET: u64 = 1 << 10;

/// Working sets from 1 KiB to `min(max_bytes, 4 GiB)`, `points_per_octave`
/// points per doubling (geometrically spaced), each rounded down to a
/// multiple of `slot_bytes` (at least one slot), ascending, without repeats.
pub fn latency_working_sets(max_bytes: u64, points_per_octave: u32, slot_bytes: u64) -> Vec<u64> {
    assert!(points_per_octave > 0 && slot_bytes > 0);
    let top = max_bytes.min(LATENCY_MAX_WORKING_SET);
    let mut sets = Vec::new();
    for k in 0.. {
        let ideal = LATENCY_MIN_WORKING_SET as f64 * 2f64.powf(k as f64 / points_per_octave as f64);
        if ideal > top as f64 * (1.0 + 1e-9) {
            break;
        }
        let bytes = ((ideal.round() as u64) / slot_bytes * slot_bytes).max(slot_bytes);
        if bytes <= top && sets.last() != Some(&bytes) {
            sets.push(bytes);
        }
    }
    sets
}

/// A run of working sets over which the latency stays level.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyPlateau {
    /// Its smallest and largest working set, in bytes.
    pub from_bytes: u64,
    pub to_bytes: u64,
    /// The median latency of its points.
    pub cycles: f64,
    pub points: usize,
}

/// The plateaus of a latency curve (`(working set bytes, cycles per load)`,
/// in any order): maximal runs of consecutive points each within `tolerance`
/// (relative) of the run's median so far, keeping runs of at least
/// `min_points` points; points between them (the rise from one level to the
/// next, as a growing share of the loads misses) belong to none. Two
/// neighbouring plateaus whose medians are within `tolerance` of each other
/// (split by one noisy point) are merged.
pub fn latency_plateaus(curve: &[(u64, f64)], tolerance: f64, min_points: usize) -> Vec<LatencyPlateau> {
    let mut points = curve.to_vec();
    points.sort_by_key(|&(bytes, _)| bytes);
    let mut runs: Vec<Vec<(u64, f64)>> = Vec::new();
    let mut run: Vec<(u64, f64)> = Vec::new();
    for point in points {
        if let Some(level) = median(&run)
            && (point.1 - level).abs() > tolerance * level
        {
            runs.push(std::mem::take(&mut run));
        }
        run.push(point);
    }
    runs.push(run);
    let mut plateaus: Vec<LatencyPlateau> = Vec::new();
    for run in runs.into_iter().filter(|r| r.len() >= min_points.max(1)) {
        let plateau = LatencyPlateau {
            from_bytes: run[0].0,
            to_bytes: run[run.len() - 1].0,
            cycles: median(&run).expect("a run has points"),
            points: run.len(),
        };
        match plateaus.last_mut() {
            Some(last) if (plateau.cycles - last.cycles).abs() <= tolerance * last.cycles => {
                let merged_cycles = (last.cycles * last.points as f64 + plateau.cycles * plateau.points as f64)
                    / (last.points + plateau.points) as f64;
                last.to_bytes = plateau.to_bytes;
                last.points += plateau.points;
                last.cycles = merged_cycles;
            }
            _ => plateaus.push(plateau),
        }
    }
    plateaus
}

fn median(run: &[(u64, f64)]) -> Option<f64> {
    if run.is_empty() {
        return None;
    }
    let mut values: Vec<f64> = run.iter().map(|&(_, c)| c).collect();
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// Which level of the memory hierarchy a plateau is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLevel {
    /// The first plateau: the working set fits the SM's L1.
    L1,
    /// A plateau starting below the L2's capacity (`step` 0; a later one, 1,
    /// 2 ...: e.g. the far partition of a split L2).
    L2 { step: u32 },
    /// A plateau starting beyond the L2's capacity: device memory (`step`
    /// 0), then each further step (address-translation misses, TLB reach).
    DeviceMemory { step: u32 },
}

impl MemoryLevel {
    pub fn label(self) -> String {
        match self {
            MemoryLevel::L1 => "L1".to_string(),
            MemoryLevel::L2 { step: 0 } => "L2".to_string(),
            MemoryLevel::L2 { step } => format!("L2, step {}", step + 1),
            MemoryLevel::DeviceMemory { step: 0 } => "device memory".to_string(),
            MemoryLevel::DeviceMemory { step } => format!("device memory, TLB step {step}"),
        }
    }
}

/// Names the plateaus of a device-memory latency curve, in working-set
/// order: the first is L1, those starting below `l2_bytes` L2, those
/// starting at or beyond it device memory and its TLB steps.
pub fn latency_levels(plateaus: &[LatencyPlateau], l2_bytes: u64) -> Vec<(MemoryLevel, LatencyPlateau)> {
    let mut sorted = plateaus.to_vec();
    sorted.sort_by_key(|p| p.from_bytes);
    let (mut l2_steps, mut memory_steps) = (0, 0);
    sorted
        .into_iter()
        .enumerate()
        .map(|(i, plateau)| {
            let level = if i == 0 {
                MemoryLevel::L1
            } else if plateau.from_bytes < l2_bytes {
                l2_steps += 1;
                MemoryLevel::L2 { step: l2_steps - 1 }
            } else {
                memory_steps += 1;
                MemoryLevel::DeviceMemory { step: memory_steps - 1 }
            };
            (level, plateau)
        })
        .collect()
}
