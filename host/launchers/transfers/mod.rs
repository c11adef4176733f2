//! Host↔device copies from each kind of host memory (the guide's §3.1.1),
//! one runner per programming model ([`TransferRunner`]).

mod cuda_runner;
mod opencl_runner;
mod runner;

pub use cuda_runner::{CudaTransferRunner, cuda_transfer_entries};
pub use opencl_runner::{OpenClTransferRunner, opencl_transfer_entries};
pub use runner::{
    PAGEABLE_SAMPLE_FACTOR, TransferDirection, TransferEntry, TransferRunner, timed_copies, transfer_runners,
};
