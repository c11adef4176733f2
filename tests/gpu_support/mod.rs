//! What the GPU integration tests share.

use ptxsuite::Error;
use ptxsuite::gpu::Gpu;

/// GPU 0; without a CUDA driver or device, `None` after printing that `test`
/// was skipped. Any other failure to open the GPU fails the test.
pub fn gpu_or_skip(test: &str) -> Option<Gpu> {
    match Gpu::open(0) {
        Ok(gpu) => Some(gpu),
        Err(e @ (Error::NoDriver | Error::NoDevice)) => {
            eprintln!("skipped {test}: {e}");
            None
        }
        Err(e) => panic!("opening the GPU failed: {e}"),
    }
}
