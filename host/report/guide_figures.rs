//! The figures the source documents publish, quoted beside our measurements.
//!
//! Only numbers stated in the guide's text are quoted; its plots are images
//! whose exact values the text does not give.

use serde::Serialize;

/// One published figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GuideFigure {
    pub device: &'static str,
    pub case: &'static str,
    /// Effective bandwidth in GB/s, when the text states one.
    pub gbps: Option<f64>,
}

const OFFSET: &[GuideFigure] = &[
    GuideFigure {
        device: "GeForce 8800 GTX (cc 1.0, 86.4 GB/s peak)",
        case: "offset 0 or a multiple of 16: one transaction per half warp",
        gbps: Some(74.0),
    },
    GuideFigure {
        device: "GeForce 8800 GTX (cc 1.0)",
        case: "any other offset: 16 transactions per half warp (about 8x slower)",
        gbps: Some(7.0),
    },
    GuideFigure {
        device: "GeForce GTX 280 (cc 1.3, 141.6 GB/s peak)",
        case: "one transaction per half warp (offset 0, 16)",
        gbps: Some(120.0),
    },
    GuideFigure {
        device: "GeForce GTX 280 (cc 1.3)",
        case: "two transactions per half warp (other offsets; a dip at 8)",
        gbps: Some(70.0),
    },
];

const STRIDE: &[GuideFigure] = &[
    GuideFigure {
        device: "GeForce GTX 280 (cc 1.3)",
        case: "stride 2: one 128-byte transaction per half warp, half of it wasted",
        gbps: None,
    },
    GuideFigure {
        device: "GeForce GTX 280 (cc 1.3)",
        case: "stride 16 and up: 16 transactions per half warp",
        gbps: None,
    },
    GuideFigure {
        device: "GeForce 8800 GTX (cc 1.0)",
        case: "any stride above 1: 16 transactions per half warp",
        gbps: None,
    },
];

/// The published figures for an experiment (empty if the guide gives none).
pub fn guide_figures(experiment: &str) -> &'static [GuideFigure] {
    match experiment {
        "offset" => OFFSET,
        "stride" => STRIDE,
        _ => &[],
    }
}
