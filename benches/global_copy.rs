//! criterion benchmarks of the global-memory kernels, timed on the GPU with
//! CUDA events (`iter_custom`), throughput in decimal bytes so criterion
//! prints effective bandwidth in GB/s (Br + Bw, GB = 1e9 B).
//!
//! Rust kernels, their CUDA C twins (when NVRTC is present) and the driver's
//! device-to-device copy, on buffers of 8 × L2. On a machine with no GPU the
//! benchmarks print that they were skipped and exit 0.

mod support;

use criterion::{BenchmarkId, Criterion, Throughput};
use ptxsuite::experiments::RunSettings;
use ptxsuite::gpu::{DeviceBuffer, EventTimer, Gpu, Implementation, TextureObject};
use ptxsuite::{Result, launchers};
use support::{gpu_or_skip, gpu_time};

/// Times `iters` launches between two events; GPU time, not wall clock.
/// Enqueues one launch: (implementation, out, in, elements, parameter).
type Launch<'a> = dyn Fn(Implementation, &mut DeviceBuffer<f32>, &DeviceBuffer<f32>, u64, i32) -> Result<()> + 'a;

struct Bench<'g> {
    gpu: &'g Gpu,
    timer: EventTimer,
    idata: DeviceBuffer<f32>,
    odata: DeviceBuffer<f32>,
    elements: u64,
}

impl Bench<'_> {
    /// One benchmark group: `launch(imp, out, in, elements, value)` for each value and implementation.
    #[allow(clippy::too_many_arguments)]
    fn group(
        &mut self,
        c: &mut Criterion,
        name: &str,
        implementations: &[Implementation],
        values: &[i32],
        elements_for: fn(u64, i32) -> u64,
        launch: &Launch,
    ) {
        let mut group = c.benchmark_group(name);
        for &imp in implementations {
            for &value in values {
                let n = elements_for(self.elements, value);
                group.throughput(Throughput::BytesDecimal(2 * 4 * n));
                let id = BenchmarkId::new(imp.label(), value);
                let (gpu, timer, odata, idata) = (self.gpu, &self.timer, &mut self.odata, &self.idata);
                group.bench_function(id, |b| {
                    launch(imp, odata, idata, n, value).expect("warm-up launch");
                    b.iter_custom(|iters| gpu_time(gpu, timer, iters, || launch(imp, odata, idata, n, value)));
                });
            }
        }
        group.finish();
    }
}

fn main() {
    let Some(gpu) = gpu_or_skip("global_copy") else {
        return;
    };
    let (implementations, note) = gpu.kernel_implementations();
    if let Some(why) = note {
        println!("CUDA C twins skipped: {why}");
    }
    let elements = RunSettings::default().buffer_bytes(gpu.info()) / 4;
    let len = elements as usize + 32;
    let idata = DeviceBuffer::from_host(&gpu, &vec![1.0f32; len]).expect("input buffer");
    let texture_input = DeviceBuffer::from_host(&gpu, &vec![1.0f32; len.min(1 << 27)]).expect("texture buffer");
    let texture = TextureObject::over(&gpu, &texture_input).expect("texture");
    let mut bench = Bench {
        gpu: &gpu,
        timer: EventTimer::new(&gpu).expect("events"),
        idata,
        odata: DeviceBuffer::<f32>::uninit(&gpu, len).expect("output buffer"),
        elements,
    };
    let kernels = &implementations[..];
    let mut c = Criterion::default().configure_from_args();
    let g = &gpu;
    let whole = |n: u64, _: i32| n / 256 * 256;
    bench.group(
        &mut c,
        "offset_copy",
        kernels,
        &[0, 1, 16, 32],
        whole,
        &|imp, o, i, n, v| launchers::offset_copy(g, imp, o, i, n, v),
    );
    bench.group(
        &mut c,
        "stride_copy",
        kernels,
        &[1, 2, 8, 32],
        |n, s| n / s as u64 / 256 * 256,
        &|imp, o, i, n, v| launchers::stride_copy(g, imp, o, i, n, v),
    );
    bench.group(&mut c, "shift_copy", kernels, &[0, 1, 17], whole, &|imp, o, i, n, v| {
        launchers::shift_copy(g, imp, o, i, n, v)
    });
    let texel_limit = |n: u64, _: i32| n.min((1 << 27) - 32) / 256 * 256;
    bench.group(
        &mut c,
        "texture_shift_copy",
        kernels,
        &[0, 1, 17],
        texel_limit,
        &|imp, o, _, n, v| launchers::texture_shift_copy(g, imp, o, &texture, n, v),
    );
    bench.group(&mut c, "vector_copy", kernels, &[0], |n, _| n, &|imp, o, i, n, _| {
        launchers::vector_copy(g, imp, o, i, n)
    });
    bench.group(
        &mut c,
        "cuMemcpyDtoDAsync",
        &[Implementation::Driver],
        &[0],
        |n, _| n,
        &|_, o, i, n, _| launchers::driver_copy(o, i, n),
    );
    c.final_summary();
}
