//! Occupancy: the Best Practices Guide's chapter 4 (§4.1, §4.4, §4.5).
//!
//! The guide: resident warps hide latency, so occupancy matters up to a point
//! (about 50%, it says, beyond which more rarely pays); the way to measure a
//! kernel's sensitivity is to launch it with more and more dynamic shared
//! memory, which it does not use, so fewer blocks fit on an SM (§4.5); block
//! sizes should be multiples of 32, with 128–256 a good start (§4.4).
//!
//! Two kernels with opposite needs, launched by the host with growing
//! dynamic shared memory (resident blocks per SM from the most down to one,
//! `cuOccupancyMaxActiveBlocksPerMultiprocessor` says how many): a copy,
//! which many independent loads in flight keep fast (`occupancy_copy`), and
//! a chain of dependent loads per thread (`occupancy_chase`), whose
//! throughput is proportional to the resident warps. `occupancy_copy` is also
//! the block-size sweep's kernel: it has the tail guard that any block size
//! (48, 96, 200, 1000 ...) and element count need.
//!
//! Neither kernel reads its dynamic shared memory: reserving it is the point.

mod chase_per_thread;
mod guarded_copy;

pub use chase_per_thread::{occupancy_chase, occupancy_chase_params};
pub use guarded_copy::{occupancy_copy, occupancy_copy_params};
