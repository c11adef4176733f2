//! Copies between the GPUs of a node and between each GPU and host memory
//! (nvbandwidth's tests, Best Practices Guide §3.1.1 and §3.1.3 carried to the
//! node): the family's runners, one per programming model ([`NodeCopyRunner`],
//! chosen by [`node_copy_runners`]), which own arrays in every GPU's memory
//! and in host memory mapped for each GPU, enable peer access, and time
//! [`NodeCopy`]s (copy engines, `vector_copy` by the PTX implementations) one
//! at a time or several at once on streams of their own.

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaNodeCopyRunner;
pub use runner::{ConcurrentSamples, NodeArray, NodeCopy, NodeCopyRunner, PeerPath, Residence, node_copy_runners};

use runner::{copy_error, together_error};
