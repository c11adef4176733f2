use crate::error::Result;
use crate::facts::KernelResources;
use crate::launchers::nominal_shape;
use crate::report::KernelRecord;
use crate::testbed::{Implementation, Testbed};

/// Every kernel of the Rust module and of the CUDA C twins (when compiled)
/// on every device, with its occupancy at the block shape its launcher uses,
/// and the OpenCL C twins with what their compiler reports.
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
                    device: dut.info().ordinal.0,
                    resources: k.resources().clone(),
                    block_threads,
                    dynamic_shared_bytes: shape.shared_bytes,
                    active_blocks_per_sm: active,
                    theoretical_occupancy: (active as f64 * block_threads as f64 / per_sm).min(1.0),
                    opencl: None,
                });
            }
        }
        // The OpenCL C twins: what clGetKernelWorkGroupInfo reports (no registers, no occupancy).
        if let Ok(side) = dut.opencl() {
            for k in side.twins().kernels() {
                let shape = nominal_shape(k.name());
                let r = k.resources();
                records.push(KernelRecord {
                    name: k.name().to_string(),
                    implementation: Implementation::OpenClC,
                    device: dut.info().ordinal.0,
                    resources: KernelResources {
                        registers_per_thread: 0,
                        local_bytes_per_thread: r.private_memory_bytes.min(i32::MAX as u64) as i32,
                        static_shared_bytes: r.local_memory_bytes.min(i32::MAX as u64) as i32,
                        max_threads_per_block: r.work_group_size.min(i32::MAX as usize) as i32,
                        ptx_version: 0,
                        binary_version: 0,
                    },
                    block_threads: shape.block.count() as u32,
                    dynamic_shared_bytes: shape.shared_bytes,
                    active_blocks_per_sm: 0,
                    theoretical_occupancy: 0.0,
                    opencl: Some(r.clone()),
                });
            }
        }
    }
    Ok(records)
}
