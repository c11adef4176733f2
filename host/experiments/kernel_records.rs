use crate::error::Result;
use crate::launchers::nominal_shape;
use crate::report::KernelRecord;
use crate::testbed::{Implementation, Testbed};

/// Every kernel of the Rust module and of the CUDA C twins (when compiled)
/// on every device, with its occupancy at the block shape its launcher uses.
pub fn kernel_records(testbed: &Testbed) -> Result<Vec<KernelRecord>> {
    let mut records = Vec::new();
    for dut in testbed.devices() {
        let per_sm = dut.info().max_threads_per_multiprocessor.max(1) as f64;
        for implementation in [Implementation::Rust, Implementation::CudaC] {
            let Ok(module) = dut.module(implementation) else {
                continue;
            };
            for k in module.kernels() {
                let shape = nominal_shape(k.name());
                let block_threads = shape.block.count() as u32;
                let active = k.max_active_blocks_per_sm(block_threads, shape.shared_bytes as usize)?;
                records.push(KernelRecord {
                    name: k.name().to_string(),
                    implementation,
                    device: dut.info().ordinal,
                    resources: k.resources().clone(),
                    block_threads,
                    dynamic_shared_bytes: shape.shared_bytes,
                    active_blocks_per_sm: active,
                    theoretical_occupancy: (active as f64 * block_threads as f64 / per_sm).min(1.0),
                });
            }
        }
    }
    Ok(records)
}
