//! Bandwidth arithmetic of the guide's §2.2, with GB = 1e9 bytes throughout.

/// Theoretical peak bandwidth, the guide's formula:
/// `memory clock (Hz) × bus width (bytes) × 2 (double data rate) / 1e9`.
///
/// The driver reports the memory clock in kHz. Returns 0 when the driver
/// reports no clock (some virtualized GPUs).
pub fn theoretical_bandwidth_gbps(memory_clock_khz: i64, bus_width_bits: i64) -> f64 {
    if memory_clock_khz <= 0 || bus_width_bits <= 0 {
        return 0.0;
    }
    memory_clock_khz as f64 * 1e3 * (bus_width_bits as f64 / 8.0) * 2.0 / 1e9
}

/// Effective bandwidth, the guide's formula: `((Br + Bw) / 1e9) / seconds`.
pub fn effective_bandwidth_gbps(bytes_read: u64, bytes_written: u64, seconds: f64) -> f64 {
    if seconds <= 0.0 {
        return 0.0;
    }
    (bytes_read + bytes_written) as f64 / 1e9 / seconds
}

/// `effective` as a percentage of `theoretical` (0 when the latter is unknown).
pub fn percent_of(effective: f64, theoretical: f64) -> f64 {
    if theoretical > 0.0 {
        100.0 * effective / theoretical
    } else {
        0.0
    }
}
