//! criterion benchmarks of the global-memory kernels, timed on the GPU with
//! events (`iter_custom`), throughput in decimal bytes so criterion prints
//! effective bandwidth in GB/s (Br + Bw, GB = 1e9 B).
//!
//! Every implementation of the copy family (the Rust kernels, their twins,
//! the copy engine) through the same runners and family description as the
//! `offset`, `stride`, `shift` and `ceiling` experiments, on buffers of
//! 8 × L2. On a machine with no GPU the benchmarks print that they were
//! skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::launchers::{CopyKernel, copy_runners};
use ptxsuite::run_settings::RunSettings;
use support::{duration_of, gpu_or_skip, one_sample_of};

/// The values each kernel is benchmarked at (a few telling points of its sweep).
fn values(kernel: CopyKernel) -> &'static [i32] {
    match kernel {
        CopyKernel::Offset | CopyKernel::Shift | CopyKernel::TextureShift => &[0, 1, 16],
        CopyKernel::Stride => &[1, 2, 8, 32],
        CopyKernel::Permuted => &[0, 6],
        CopyKernel::Vector | CopyKernel::DriverCopy => &[0],
    }
}

fn main() {
    let Some(dut) = gpu_or_skip("global_copy") else {
        return;
    };
    // The texture path's size limit caps the buffers (2^27 texels today).
    let texels = dut.info().max_texture_1d_linear_texels.max(1 << 20) as u64;
    let elements = (RunSettings::default().buffer_bytes(dut.info()) / 4).min(texels - 32);
    let len = elements as usize + 32;
    let (mut runners, waived) = copy_runners::<f32>(&dut, len).expect("copy buffers");
    for (implementation, why) in waived {
        println!("{} skipped: {why}", implementation.label());
    }
    let mut c = Criterion::default().configure_from_args();
    for kernel in [
        CopyKernel::Offset,
        CopyKernel::Stride,
        CopyKernel::Shift,
        CopyKernel::TextureShift,
        CopyKernel::Permuted,
        CopyKernel::Vector,
        CopyKernel::DriverCopy,
    ] {
        let entry = kernel.entry::<f32>().expect("f32 kernels");
        let mut group = c.benchmark_group(entry);
        for runner in &mut runners {
            for implementation in runner.implementations().to_vec() {
                if !kernel.runs_on(implementation) {
                    continue;
                }
                for &value in values(kernel) {
                    let threads = kernel.threads(len, value);
                    group.throughput(Throughput::BytesDecimal(2 * 4 * threads));
                    group.bench_function(BenchmarkId::new(implementation.label(), value), |b| {
                        b.iter_custom(|iters| {
                            duration_of(
                                iters,
                                runner.time(implementation, kernel, threads, value, &one_sample_of(iters)),
                            )
                        });
                    });
                }
            }
        }
        group.finish();
    }
    c.final_summary();
}
