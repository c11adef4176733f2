//! Guide §3.2.1.4: `stride_copy` for strides 1..=32.
//!
//! The buffers keep one size for every stride and the thread count falls as
//! `1/stride`, so even at stride 32 the sectors touched exceed L2 with the
//! default size (8 × L2 per buffer): the sweep measures DRAM, not cache.

use super::copy_sweep::{self, CopySweep, whole_blocks};
use super::{Experiment, RunSettings};

const STRIDES: [i32; 32] = {
    let mut values = [0; 32];
    let mut i = 0;
    while i < 32 {
        values[i] = i as i32 + 1;
        i += 1;
    }
    values
};

const SWEEP: CopySweep = CopySweep {
    experiment: "stride",
    title: "Strided access: stride copy",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.2.1.4, Listing 3.6, Figure 3.9",
    kernel: "stride_copy",
    parameter: "stride",
    values: &STRIDES,
    extra_elements: 0,
    threads: |elements, stride| whole_blocks(elements, stride as usize),
    launch: crate::launchers::stride_copy,
    reference: crate::reference::stride_copy,
};

pub(super) const EXPERIMENT: Experiment = Experiment {
    name: SWEEP.experiment,
    title: SWEEP.title,
    guide_section: SWEEP.guide_section,
    points: |_: &RunSettings| STRIDES.len() as u64,
    run: |gpu, settings, progress| copy_sweep::run(gpu, settings, &SWEEP, progress),
};
