//! Mapped (zero-copy) and pinned host memory read and written by kernels and
//! the copy engines (Best Practices Guide §1.1.2 and §3.1.3): the family's
//! runners, one per programming model ([`MappedRunner`], chosen by
//! [`mapped_runners`]), which own arrays in mapped, pinned and device memory
//! and time [`MappedStep`]s on them (copies, `vector_copy`, `stride_copy`,
//! the vector addition and the tiled SGEMM, through the existing typed
//! launchers).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaMappedRunner;
pub use runner::{ArrayId, MappedRunner, MappedStep, Memory, mapped_runners};

use runner::check_step;
