//! The CLI's subcommands, as library functions (the binary only parses arguments).

mod info;
mod run;

pub use info::info;
pub use run::{RunOptions, run};
