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

/// The theoretical bandwidth of a PCIe link, each direction, GB/s, from the
/// link as [`DeviceInfo::pcie_link`](crate::gpu::DeviceInfo::pcie_link)
/// gives it (`"32.0 GT/s PCIe x16"`): transfers per second × lanes × the line
/// code's payload share (8b/10b up to 5 GT/s, 128b/130b from 8 GT/s, FLIT
/// 242/256 at 64 GT/s) / 8 bits. `None` when the text says no speed or width.
pub fn pcie_link_gbps(link: &str) -> Option<f64> {
    let mut words = link.split_whitespace();
    let rate: f64 = words.next()?.parse().ok()?;
    let lanes: f64 = link.rsplit_once('x')?.1.trim().parse().ok()?;
    let payload = if rate <= 5.0 {
        0.8
    } else if rate < 64.0 {
        128.0 / 130.0
    } else {
        242.0 / 256.0
    };
    (rate > 0.0 && lanes > 0.0).then(|| rate * lanes * payload / 8.0)
}

#[cfg(test)]
mod tests {
    use super::pcie_link_gbps;

    #[test]
    fn pcie_links_give_their_per_direction_bandwidth() {
        let gen5 = pcie_link_gbps("32.0 GT/s PCIe x16").unwrap();
        assert!((gen5 - 63.015).abs() < 0.01, "{gen5}");
        let gen3 = pcie_link_gbps("8.0 GT/s PCIe x16").unwrap();
        assert!((gen3 - 15.754).abs() < 0.01, "{gen3}");
        assert!((pcie_link_gbps("2.5 GT/s PCIe x1").unwrap() - 0.25).abs() < 1e-9);
        assert_eq!(pcie_link_gbps("Unknown x16"), None);
        assert_eq!(pcie_link_gbps("16.0 GT/s PCIe"), None);
    }
}
