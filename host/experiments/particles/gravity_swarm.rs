//! The notes' all-pairs "gravity" swarm, measured: their unoptimised kernel
//! and a shared-memory tiled one on [`GRAVITY_GRID`] particles in 16 × 16
//! blocks. Positions ping-pong between two vertex buffers (step `k` reads
//! the one step `k − 1` wrote). A step lasts far longer than a launch, so
//! steps are launched from the host between events; each point is checked
//! after [`CHECK_STEPS`] steps from the start against the CPU simulation.

use kernels_gpu::device::{Dim3, F32x4};

use super::super::calibrated_launches::timed_launches;
use super::fountain_tuning::tuning_key_of;
use super::population::population_variant;
use crate::error::Result;
use crate::experiments::RunContext;
use crate::gpu::DeviceBuffer;
use crate::launchers::gravity_step;
use crate::particle_scene::{GRAVITY_GRID, ParticleRows, ParticleState, gravity_initial_state, gravity_kernel};
use crate::reference::{gravity_step as reference_step, particle_rows_mismatch};
use crate::report::{ExperimentResult, Series};
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::CudaTimer;

/// The block shape: the notes' 16 × 16.
pub const GRAVITY_BLOCK: (u32, u32) = (16, 16);
/// Steps a check runs from the start: both directions of the ping-pong.
pub const CHECK_STEPS: u32 = 2;
/// The extra figure: pairs of particles visited per second.
pub const PULL_RATE: &str = "G pulls/s";

fn to_vectors(floats: &[f32]) -> Vec<F32x4> {
    floats
        .as_chunks::<4>()
        .0
        .iter()
        .map(|&c| F32x4::from_array(c))
        .collect()
}

/// The two vertex buffers and the state of the all-pairs swarm.
struct GravityBuffers {
    start: ParticleState,
    even: DeviceBuffer<F32x4>,
    odd: DeviceBuffer<F32x4>,
    state: DeviceBuffer<F32x4>,
}

impl GravityBuffers {
    fn new(dut: &DeviceUnderTest) -> Result<Self> {
        let start = gravity_initial_state(GRAVITY_GRID);
        let gpu = dut.gpu();
        Ok(Self {
            even: DeviceBuffer::from_host(gpu, &to_vectors(&start.vertices))?,
            odd: DeviceBuffer::from_host(gpu, &to_vectors(&start.vertices))?,
            state: DeviceBuffer::from_host(gpu, &to_vectors(&start.state))?,
            start,
        })
    }

    fn reset(&mut self) -> Result<()> {
        self.even.copy_from_host(&to_vectors(&self.start.vertices))?;
        self.state.copy_from_host(&to_vectors(&self.start.state))
    }

    /// Step `k`: even steps read `even` and write `odd`, odd steps the reverse.
    fn step(&mut self, dut: &DeviceUnderTest, implementation: Implementation, tiled: bool, k: u32) -> Result<()> {
        let block = Dim3::xy(GRAVITY_BLOCK.0, GRAVITY_BLOCK.1);
        let (from, to) = if k % 2 == 0 {
            (&self.even, &mut self.odd)
        } else {
            (&self.odd, &mut self.even)
        };
        gravity_step(
            dut,
            implementation,
            tiled,
            from,
            (to, &mut self.state),
            GRAVITY_GRID,
            block,
        )
    }

    /// After [`CHECK_STEPS`] steps from the start: what differs from the CPU simulation, if anything.
    fn check(&mut self, dut: &DeviceUnderTest, implementation: Implementation, tiled: bool) -> Result<Option<String>> {
        self.reset()?;
        for k in 0..CHECK_STEPS {
            self.step(dut, implementation, tiled, k)?;
        }
        let got = ParticleState {
            grid: GRAVITY_GRID,
            vertices: F32x4::as_floats(&self.even.to_host()?).to_vec(),
            state: F32x4::as_floats(&self.state.to_host()?).to_vec(),
        };
        let mut expected = self.start.clone();
        (0..CHECK_STEPS).for_each(|_| reference_step(&mut expected));
        let differs = particle_rows_mismatch(&ParticleRows::all(got), &ParticleRows::all(expected));
        Ok(differs.map(|d| format!("after {CHECK_STEPS} steps: {d}")))
    }
}

/// Measures both kernels for every implementation, one series each.
pub fn measure_gravity(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    implementations: &[Implementation],
) -> Result<()> {
    let dut = ctx.device;
    let mut buffers = GravityBuffers::new(dut)?;
    let mut timer = CudaTimer::new(dut.gpu())?;
    let at = tuning_key_of(GRAVITY_BLOCK).expect("16 x 16 is in the table");
    let n = GRAVITY_GRID.particles() as f64;
    for tiled in [false, true] {
        ctx.progress
            .set_message(format!("particle-tuning: {}", gravity_kernel(tiled)));
        for &implementation in implementations {
            let failure = buffers.check(dut, implementation, tiled)?;
            let mut k = CHECK_STEPS;
            let mut step = || {
                k += 1;
                buffers.step(dut, implementation, tiled, k)
            };
            let times = timed_launches(&mut timer, ctx.settings, &mut step)?;
            let key = ctx.key(gravity_kernel(tiled), implementation, "f32x4");
            let variant = population_variant(GRAVITY_GRID);
            let title = format!("{} · {}, {variant}", gravity_kernel(tiled), implementation.label());
            let mut series = Series::new(key.variant(&variant), title);
            let mut point = super::step_point(at, GRAVITY_GRID, &times, failure);
            if let Some(p) = point.as_mut()
                && let Some(ms) = p.median_ms()
            {
                p.set_extra(PULL_RATE, n * n / (ms / 1e3) / 1e9);
            }
            series.points.extend(point);
            result.series.push(series);
        }
        ctx.progress.inc(1);
    }
    Ok(())
}
