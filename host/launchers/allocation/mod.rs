//! The allocation family (Best Practices Guide §3.3, §3.2.1.2): what an
//! allocate/free pair costs, from the driver's allocator and from the
//! stream-ordered pool, beside reusing a kept buffer and one launch waited
//! for ([`AllocationCase`]); one runner per programming model
//! ([`AllocationRunner`], chosen by [`allocation_runners`]; the calls are
//! CUDA's driver's, with no OpenCL counterpart measured).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaAllocationRunner;
pub use runner::{AllocationCase, AllocationRunner, CaseReadBack, allocation_runners, stream_ordered_pools};
