//! Guide §3.2.1.3: `offset_copy` for offsets 0..=32.

use super::copy_sweep::{self, CopySweep, whole_blocks};
use super::{Experiment, RunSettings};

const OFFSETS: [i32; 33] = {
    let mut values = [0; 33];
    let mut i = 0;
    while i < 33 {
        values[i] = i as i32;
        i += 1;
    }
    values
};

const SWEEP: CopySweep = CopySweep {
    experiment: "offset",
    title: "Misaligned access: offset copy",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.2.1.3, Listing 3.5, Figure 3.7",
    kernel: "offset_copy",
    parameter: "offset",
    values: &OFFSETS,
    extra_elements: 32,
    threads: |elements, _offset| whole_blocks(elements, 1),
    launch: crate::launchers::offset_copy,
    reference: crate::reference::offset_copy,
};

pub(super) const EXPERIMENT: Experiment = Experiment {
    name: SWEEP.experiment,
    title: SWEEP.title,
    guide_section: SWEEP.guide_section,
    points: |_: &RunSettings| OFFSETS.len() as u64,
    run: |gpu, settings, progress| copy_sweep::run(gpu, settings, &SWEEP, progress),
};
