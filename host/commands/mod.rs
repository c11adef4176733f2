//! The CLI's subcommands, as library functions (the binary only parses arguments).

mod claims;
mod compare;
mod counters_probe;
mod info;
mod merge;
mod render;
mod run;
mod selftest;

pub use claims::{all_claims, claims};
pub use compare::{Comparison, compare};
pub use counters_probe::counters_probe;
pub use info::info;
pub use merge::{Merged, merge};
pub use render::render;
pub use run::{INTERRUPTED_EXIT, RunOptions, run, stop_on_ctrl_c};
pub use selftest::selftest;
