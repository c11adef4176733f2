//! The counters pass: the GPU's hardware counters beside every modelled
//! figure (`run --counters`, and a `selftest` row). For a kernel point, one
//! more launch after its timed samples, under CUPTI ([`crate::cupti`]),
//! gives device-memory bytes, L2 bytes, shared-memory wavefronts and bank
//! conflicts, local-memory bytes and SASS instructions; the experiments put
//! them beside their models and their ledger rows check that the two agree.
//!
//! Counter collection replays kernels: it never runs between timed samples,
//! and the timed samples never see its launches.

mod counted;
mod counter_pass;
mod hardware_counter;

pub use counted::{
    CONFLICTS_PER_REQUEST, Counted, DRAM_GBPS, LOCAL_BYTES_PER_THREAD, SASS_PER_ELEMENT, SASS_PER_WARP, SharedAccess,
    WAVEFRONTS_PER_REQUEST,
};
pub use counter_pass::{CounterOutcome, count, count_traced};
pub use hardware_counter::HardwareCounter;
