//! criterion benchmarks of one step of the lecture notes' particle systems
//! (fountain and swarm) with their 16 × 16 blocks, on the notes' 256 × 256
//! particles and on 4096 × 4096, the Rust kernels and their CUDA C twins,
//! timed with events; throughput counts particle updates (each reads 32 and
//! writes 48 bytes). Without a GPU they print that they were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use kernels_gpu::device::Dim3;
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::launchers::particle_step;
use ptxsuite::particle_scene::{NOTES_GRID, NOTES_MAX_AGE, ParticleGrid, ParticleSystem, float4s, initial_state};
use ptxsuite::timing::{CudaTimer, time_per_launch};
use support::{duration_of, gpu_or_skip, one_sample_of};

const BLOCK: Dim3 = Dim3::xy(16, 16);

fn main() {
    let Some(dut) = gpu_or_skip("particles") else {
        return;
    };
    let mut c = Criterion::default().configure_from_args();
    for grid in [NOTES_GRID, ParticleGrid::new(4096, 4096)] {
        let mut group = c.benchmark_group(format!("particles_{}x{}", grid.width, grid.height));
        group.throughput(Throughput::Elements(grid.particles() as u64));
        for system in ParticleSystem::ALL {
            let start = initial_state(system, grid, NOTES_MAX_AGE).expect("initial state");
            let mut vertices = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.vertices)).expect("vertices");
            let mut state = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.state)).expect("state");
            drop(start);
            for implementation in dut.ptx_implementations().0 {
                let mut frame = 0u32;
                let id = BenchmarkId::new(system.kernel(), implementation.label());
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| {
                        let mut timer = CudaTimer::new(dut.gpu()).expect("events");
                        let mut step = || {
                            let inputs = system.inputs(frame);
                            frame = frame.wrapping_add(1);
                            particle_step(
                                &dut,
                                implementation,
                                &mut vertices,
                                &mut state,
                                grid,
                                BLOCK,
                                NOTES_MAX_AGE,
                                inputs,
                            )
                        };
                        duration_of(iters, time_per_launch(&mut timer, &one_sample_of(iters), &mut step))
                    });
                });
            }
        }
        group.finish();
    }
    c.final_summary();
}
