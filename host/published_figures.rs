//! Every figure the source documents publish that the suite sets beside its
//! measurements, with the document and section it comes from. Only numbers
//! stated in the documents' text or tables are here; their plots are images
//! whose exact values the text does not give.

use serde::Serialize;

/// The source documents (`shared/seeds/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Document {
    /// NVIDIA CUDA C Best Practices Guide 4.0.
    BestPracticesGuide,
    /// NVIDIA OpenCL Programming Guide for the CUDA Architecture 2.3.
    OpenClGuide,
    /// "OpenCL Programming for the CUDA Architecture" (the whitepaper).
    OpenClWhitepaper,
}

impl Document {
    pub fn title(self) -> &'static str {
        match self {
            Self::BestPracticesGuide => "CUDA C Best Practices Guide 4.0",
            Self::OpenClGuide => "OpenCL Programming Guide 2.3",
            Self::OpenClWhitepaper => "OpenCL whitepaper",
        }
    }
}

/// One published figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublishedFigure {
    pub document: Document,
    pub section: &'static str,
    pub device: &'static str,
    /// What was measured, in our words.
    pub case: &'static str,
    /// The kernel (or case) it belongs to, for tables that line figures up with series.
    pub kernel: &'static str,
    /// The number the text states, if it states one.
    pub value: Option<f64>,
    pub unit: &'static str,
}

const fn figure(
    document: Document,
    section: &'static str,
    device: &'static str,
    case: &'static str,
    kernel: &'static str,
    value: Option<f64>,
    unit: &'static str,
) -> PublishedFigure {
    PublishedFigure {
        document,
        section,
        device,
        case,
        kernel,
        value,
        unit,
    }
}

use Document::{BestPracticesGuide as Bpg, OpenClWhitepaper as Whitepaper};

const GTX8800: &str = "GeForce 8800 GTX (cc 1.0, 86.4 GB/s peak)";
const GTX280: &str = "GeForce GTX 280 (cc 1.3, 141.6 GB/s peak)";
const GTX285: &str = "GeForce GTX 285";

/// §3.2.1.3, misaligned access.
pub const OFFSET: &[PublishedFigure] = &[
    figure(
        Bpg,
        "§3.2.1.3",
        GTX8800,
        "offset 0 or a multiple of 16: one transaction per half warp",
        "offset_copy",
        Some(74.0),
        "GB/s",
    ),
    figure(
        Bpg,
        "§3.2.1.3",
        GTX8800,
        "any other offset: 16 transactions per half warp (the guide: \"roughly 8x\" slower)",
        "offset_copy",
        Some(7.0),
        "GB/s",
    ),
    figure(
        Bpg,
        "§3.2.1.3",
        GTX280,
        "one transaction per half warp (offset 0, 16)",
        "offset_copy",
        Some(120.0),
        "GB/s",
    ),
    figure(
        Bpg,
        "§3.2.1.3",
        GTX280,
        "two transactions per half warp (other offsets; a dip at 8)",
        "offset_copy",
        Some(70.0),
        "GB/s",
    ),
];

/// §3.2.1.4, strided access (the guide gives only its plot and transaction counts).
pub const STRIDE: &[PublishedFigure] = &[
    figure(
        Bpg,
        "§3.2.1.4",
        GTX280,
        "stride 2: one 128-byte transaction per half warp, half of it wasted",
        "stride_copy",
        None,
        "GB/s",
    ),
    figure(
        Bpg,
        "§3.2.1.4",
        GTX280,
        "stride 16 and up: 16 transactions per half warp",
        "stride_copy",
        None,
        "GB/s",
    ),
    figure(
        Bpg,
        "§3.2.1.4",
        GTX8800,
        "any stride above 1: 16 transactions per half warp",
        "stride_copy",
        None,
        "GB/s",
    ),
];

/// Table 1 of the whitepaper: ms on a GTX 285 for a 60989 × 1100 matrix.
pub const MATVEC: &[PublishedFigure] = &[
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 2: one row per thread",
        "matvec_row_per_thread",
        Some(83.2),
        "ms",
    ),
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 3: grid-stride rows",
        "matvec_grid_stride_rows",
        Some(82.2),
        "ms",
    ),
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 4: block per row, serial sum",
        "matvec_block_serial_sum",
        Some(32.5),
        "ms",
    ),
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 5: tree sum, interleaved",
        "matvec_tree_interleaved",
        Some(12.1),
        "ms",
    ),
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 6: tree sum, sequential addressing",
        "matvec_tree_sequential",
        Some(9.6),
        "ms",
    ),
    figure(
        Whitepaper,
        "Table 1",
        GTX285,
        "Listing 7: warp-synchronous sum",
        "matvec_warp_shuffle",
        Some(9.2),
        "ms",
    ),
];

/// Tables 3.2 and 3.3 of the Best Practices Guide: effective GB/s.
pub const MATMUL: &[PublishedFigure] = &[
    figure(
        Bpg,
        "Table 3.2",
        GTX280,
        "C = AB, no optimization",
        "simple_multiply",
        Some(8.7),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.2",
        GTX8800,
        "C = AB, no optimization",
        "simple_multiply",
        Some(0.7),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.2",
        GTX280,
        "C = AB, tile of A in shared memory",
        "coalesced_multiply",
        Some(14.3),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.2",
        GTX8800,
        "C = AB, tile of A in shared memory",
        "coalesced_multiply",
        Some(8.2),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.2",
        GTX280,
        "C = AB, tiles of A and B in shared memory",
        "shared_ab_multiply",
        Some(29.7),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.2",
        GTX8800,
        "C = AB, tiles of A and B in shared memory",
        "shared_ab_multiply",
        Some(15.7),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX280,
        "C = AAᵀ, no optimization",
        "simple_multiply_aat",
        Some(1.1),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX8800,
        "C = AAᵀ, no optimization",
        "simple_multiply_aat",
        Some(0.5),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX280,
        "C = AAᵀ, transposed tile (coalesced reads)",
        "coalesced_multiply_aat",
        Some(24.9),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX8800,
        "C = AAᵀ, transposed tile (coalesced reads)",
        "coalesced_multiply_aat",
        Some(13.2),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX280,
        "C = AAᵀ, padded tile (no bank conflicts)",
        "coalesced_multiply_aat_padded",
        Some(30.4),
        "GB/s",
    ),
    figure(
        Bpg,
        "Table 3.3",
        GTX8800,
        "C = AAᵀ, padded tile (no bank conflicts)",
        "coalesced_multiply_aat_padded",
        Some(15.6),
        "GB/s",
    ),
];

/// The published figures shown in an experiment's section (empty if the documents give none).
pub fn for_experiment(experiment: &str) -> &'static [PublishedFigure] {
    match experiment {
        "offset" => OFFSET,
        "stride" => STRIDE,
        _ => &[],
    }
}

/// The figure of `kernel` on `device` among `figures`.
pub fn value_of(figures: &[PublishedFigure], kernel: &str, device: &str) -> Option<f64> {
    figures
        .iter()
        .find(|f| f.kernel == kernel && f.device == device)
        .and_then(|f| f.value)
}

/// The devices of the Best Practices Guide's tables, for column headers.
pub const GUIDE_TABLE_DEVICES: [(&str, &str); 2] = [("GTX 280", GTX280), ("8800", GTX8800)];

/// The whitepaper's GPU.
pub const WHITEPAPER_DEVICE: &str = GTX285;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_name_their_section_and_line_up_with_kernels() {
        for figures in [OFFSET, STRIDE, MATVEC, MATMUL] {
            assert!(
                figures
                    .iter()
                    .all(|f| f.section.starts_with('§') || f.section.starts_with("Table"))
            );
        }
        assert_eq!(value_of(MATVEC, "matvec_warp_shuffle", WHITEPAPER_DEVICE), Some(9.2));
        assert_eq!(value_of(MATMUL, "coalesced_multiply_aat_padded", GTX280), Some(30.4));
        assert_eq!(value_of(MATMUL, "matvec_warp_per_row", GTX280), None);
    }
}
