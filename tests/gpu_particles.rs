//! The particle systems on a real GPU: the Rust kernels and their CUDA C
//! twins against the CPU step, and the CUDA–OpenGL interop loop.
//!
//! The swarm must match the CPU bit for bit. The fountain too, except the
//! position of a particle born in the step: its emitter position comes from
//! the GPU's fast sine and cosine, within `0.2 × 2^-21.19` (plus a rounding)
//! of the CPU's. Rust and CUDA C must match each other bit for bit.
//!
//! Without a CUDA driver or device each test prints `SKIPPED ...` and passes;
//! the interop tests also skip (saying why) where EGL or an EGL device for
//! the GPU is missing.

mod gpu_support;

use std::rc::Rc;

use gpu_support::{gpu_or_skip, note_skipped};
use kernels_gpu::device::{Dim3, F32x4, FAST_COS_MAX_ABS_ERROR, FAST_SIN_MAX_ABS_ERROR};
use ptxsuite::Error;
use ptxsuite::gl::{EglDeviceChoice, GlContext, PointRenderer};
use ptxsuite::gpu::{DeviceBuffer, GraphicsResource};
use ptxsuite::launchers::{self, ParticleFrames};
use ptxsuite::particle_scene::{
    GRAVITY_GRID, ParticleGrid, ParticleRows, ParticleState, ParticleSystem, float4s, gravity_initial_state,
    initial_state,
};
use ptxsuite::reference::{
    FountainEmitter, particle_rows_mismatch, particle_step, run_particle_rows, run_particle_steps,
};
use ptxsuite::testbed::{DeviceUnderTest, Implementation};

/// How far a newborn fountain particle's position may be from the CPU's:
/// the emitter (radius 0.2) by the fast cosine's or sine's error, plus the
/// roundings of the product and of the first move.
const NEWBORN_TOLERANCE: f32 = 0.2 * FAST_COS_MAX_ABS_ERROR + 1e-7;
const _: () = assert!(
    FAST_SIN_MAX_ABS_ERROR <= FAST_COS_MAX_ABS_ERROR,
    "the cosine's bound covers the sine"
);

fn implementations(dut: &DeviceUnderTest) -> Vec<Implementation> {
    let (implementations, waived) = dut.ptx_implementations();
    for why in waived {
        note_skipped(&format!("CUDA C twins skipped: {why}"));
    }
    implementations
}

/// The scene after `steps` CPU steps: every particle born at least once when `steps > max_age`.
fn settled(system: ParticleSystem, grid: ParticleGrid, max_age: u32, steps: u32) -> ParticleState {
    run_particle_steps(system, initial_state(system, grid, max_age).unwrap(), max_age, 0, steps)
}

/// One GPU step from `before` (frame `frame`) with `block`.
fn gpu_step(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    before: &ParticleState,
    max_age: u32,
    frame: u32,
    block: Dim3,
    system: ParticleSystem,
) -> ParticleState {
    let mut vertices = DeviceBuffer::from_host(dut.gpu(), &float4s(&before.vertices)).unwrap();
    let mut state = DeviceBuffer::from_host(dut.gpu(), &float4s(&before.state)).unwrap();
    launchers::particle_step(
        dut,
        implementation,
        &mut vertices,
        &mut state,
        before.grid,
        block,
        max_age,
        system.inputs(frame),
    )
    .unwrap();
    dut.gpu().synchronize().unwrap();
    ParticleState {
        grid: before.grid,
        vertices: F32x4::as_floats(&vertices.to_host().unwrap()).to_vec(),
        state: F32x4::as_floats(&state.to_host().unwrap()).to_vec(),
    }
}

/// `got` against the CPU step from `before`: exact, but for the positions of
/// fountain particles born in this step (within [`NEWBORN_TOLERANCE`]).
/// Returns how many particles were born.
fn assert_matches_cpu_step(
    system: ParticleSystem,
    before: &ParticleState,
    got: &ParticleState,
    max_age: u32,
    frame: u32,
    what: &str,
) -> usize {
    let mut expected = before.clone();
    particle_step(&mut expected, max_age, system.inputs(frame));
    let n = before.grid.particles();
    let mut born = 0;
    for p in 0..n {
        let newborn = before.particle(p)[0] >= max_age as f32;
        born += newborn as usize;
        assert_eq!(
            got.particle(p).map(f32::to_bits),
            expected.particle(p).map(f32::to_bits),
            "{what}: state of particle {p}"
        );
        assert_eq!(
            got.colour(p).map(f32::to_bits),
            expected.colour(p).map(f32::to_bits),
            "{what}: colour of particle {p}"
        );
        let (g, e) = (got.position(p), expected.position(p));
        if newborn && system == ParticleSystem::Fountain {
            let close = (0..4).all(|c| (g[c] - e[c]).abs() <= NEWBORN_TOLERANCE);
            assert!(close, "{what}: newborn particle {p} at {g:?}, CPU {e:?}");
        } else {
            assert_eq!(
                g.map(f32::to_bits),
                e.map(f32::to_bits),
                "{what}: position of particle {p}"
            );
        }
    }
    born
}

#[test]
fn gpu_particle_kernels_match_the_cpu_step() {
    let Some(dut) = gpu_or_skip("gpu_particle_kernels_match_the_cpu_step") else {
        return;
    };
    let cases = [
        (
            ParticleGrid::new(37, 19),
            40,
            vec![Dim3::xy(5, 3), Dim3::xy(16, 16), Dim3::xy(1, 1)],
        ),
        (
            ParticleGrid::new(256, 256),
            600,
            vec![Dim3::xy(16, 16), Dim3::xy(256, 1), Dim3::xy(1, 256), Dim3::xy(32, 8)],
        ),
    ];
    for system in ParticleSystem::ALL {
        for (grid, max_age, blocks) in &cases {
            let (grid, max_age) = (*grid, *max_age);
            // Past max_age steps everyone has been born; then births happen every step.
            let warm = max_age + 37;
            let before = settled(system, grid, max_age, warm);
            for implementation in implementations(&dut) {
                for &block in blocks {
                    let what = format!(
                        "{} {}x{} {} block {}x{}",
                        system.label(),
                        grid.width,
                        grid.height,
                        implementation.label(),
                        block.x,
                        block.y
                    );
                    let got = gpu_step(&dut, implementation, &before, max_age, warm, block, system);
                    let born = assert_matches_cpu_step(system, &before, &got, max_age, warm, &what);
                    assert!(born > 0, "{what}: no particle was born in the step checked");
                }
            }
        }
    }
}

#[test]
fn gpu_rust_and_cuda_c_agree_bit_for_bit_over_many_steps() {
    let Some(dut) = gpu_or_skip("gpu_rust_and_cuda_c_agree_bit_for_bit_over_many_steps") else {
        return;
    };
    if dut.module(Implementation::CudaC).is_err() {
        note_skipped("SKIPPED gpu_rust_and_cuda_c_agree_bit_for_bit_over_many_steps: no CUDA C twins");
        return;
    }
    let grid = ParticleGrid::new(256, 256);
    let max_age = 600;
    for system in ParticleSystem::ALL {
        let start = initial_state(system, grid, max_age).unwrap();
        let mut finals = Vec::new();
        for implementation in [Implementation::Rust, Implementation::CudaC] {
            let mut vertices = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.vertices)).unwrap();
            let mut state = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.state)).unwrap();
            for frame in 0..700 {
                let inputs = system.inputs(frame);
                launchers::particle_step(
                    &dut,
                    implementation,
                    &mut vertices,
                    &mut state,
                    grid,
                    Dim3::xy(16, 16),
                    max_age,
                    inputs,
                )
                .unwrap();
            }
            dut.gpu().synchronize().unwrap();
            let v = F32x4::as_floats(&vertices.to_host().unwrap())
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>();
            let s = F32x4::as_floats(&state.to_host().unwrap())
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>();
            finals.push((v, s));
        }
        assert!(
            finals[0] == finals[1],
            "{}: Rust and CUDA C differ after 700 steps",
            system.label()
        );
        if system == ParticleSystem::Swarm {
            // No fast sine in the swarm: the GPU run is the CPU run, bit for bit.
            let cpu = settled(system, grid, max_age, 700);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(
                finals[0] == (bits(&cpu.vertices), bits(&cpu.state)),
                "swarm: GPU and CPU differ after 700 steps"
            );
        }
    }
}

/// A GL context on the GPU's own EGL device, or `None` after saying why the test is skipped.
fn gl_context_or_skip(dut: &DeviceUnderTest, test: &str) -> Option<Rc<GlContext>> {
    match GlContext::open(EglDeviceChoice::CudaOrdinal(dut.info().ordinal.0)) {
        Ok(context) => Some(Rc::new(context)),
        Err(Error::Waived(why)) => {
            note_skipped(&format!("SKIPPED {test}: {why}"));
            None
        }
        Err(e) => panic!("creating a GL context on the GPU failed: {e}"),
    }
}

#[test]
fn gpu_interop_pattern_written_by_cuda_is_drawn_by_opengl() {
    let test = "gpu_interop_pattern_written_by_cuda_is_drawn_by_opengl";
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let Some(context) = gl_context_or_skip(&dut, test) else {
        return;
    };
    note_skipped(&format!(
        "{test}: GL {}.{} on {}: {}",
        context.version().0,
        context.version().1,
        context.display().description(),
        context.renderer()
    ));
    let (width, height) = (16u32, 8u32);
    // Three points at pixel centres (identity view), two of them on one pixel, colours exact in 8 bits.
    let centre = |x: u32, y: u32| {
        [
            2.0 * (x as f32 + 0.5) / width as f32 - 1.0,
            1.0 - 2.0 * (y as f32 + 0.5) / height as f32,
        ]
    };
    let unit = |k: u8| k as f32 / 255.0;
    let points = [
        (centre(0, 0), [unit(255), 0.0, 0.0, 1.0]),
        (centre(7, 3), [unit(51), unit(17), unit(3), 1.0]),
        (centre(7, 3), [unit(51), unit(17), unit(3), 1.0]),
    ];
    let mut vertices: Vec<f32> = points.iter().flat_map(|(p, _)| [p[0], p[1], 0.0, 1.0]).collect();
    vertices.extend(points.iter().flat_map(|(_, c)| *c));
    let renderer = PointRenderer::new(context.clone(), points.len(), width, height).unwrap();
    renderer.upload_vertices(&vec![0.0; vertices.len()]).unwrap();
    // SAFETY: the renderer's buffer on the current context, which runs on this GPU (matched by EGL_CUDA_DEVICE_NV);
    // the resource is dropped before the renderer.
    let mut resource =
        unsafe { GraphicsResource::register_gl_buffer(dut.gpu(), renderer.vertex_buffer_name()) }.unwrap();
    {
        let mut mapped = resource.map().unwrap();
        assert_eq!(mapped.bytes(), renderer.vertex_bytes());
        mapped.copy_from_host(&vertices).unwrap();
        mapped.unmap().unwrap();
    }
    dut.gpu().synchronize().unwrap();
    assert_eq!(renderer.read_vertices().unwrap(), vertices, "GL reads what CUDA wrote");
    let identity: [f32; 16] = std::array::from_fn(|i| if i % 5 == 0 { 1.0 } else { 0.0 });
    renderer.draw(&identity, 1.0).unwrap();
    let image = renderer.read_pixels().unwrap();
    for y in 0..height {
        for x in 0..width {
            let want = match (x, y) {
                (0, 0) => [255, 0, 0],
                (7, 3) => [102, 34, 6],
                _ => [0, 0, 0],
            };
            let got = image.pixel(x, y);
            assert!(
                got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1),
                "pixel ({x}, {y}): {got:?}, expected {want:?}"
            );
        }
    }
    drop(resource);
}

#[test]
fn gpu_interop_frames_match_the_cpu_step_and_are_timed() {
    let test = "gpu_interop_frames_match_the_cpu_step_and_are_timed";
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let Some(context) = gl_context_or_skip(&dut, test) else {
        return;
    };
    let grid = ParticleGrid::new(256, 256);
    let max_age = 600;
    for system in ParticleSystem::ALL {
        let mut frames =
            ParticleFrames::with_context(&dut, context.clone(), system, grid, max_age, (320, 240)).unwrap();
        let warm = max_age + 11;
        let before = settled(system, grid, max_age, warm);
        for implementation in implementations(&dut) {
            frames.set_state(&before, warm).unwrap();
            assert_eq!(
                frames.read_state().unwrap(),
                before,
                "the state set through CUDA reads back through GL"
            );
            let (times, image) = frames.frame(implementation, Dim3::xy(16, 16)).unwrap();
            let got = frames.read_state().unwrap();
            let what = format!("interop {} {}", system.label(), implementation.label());
            assert_matches_cpu_step(system, &before, &got, max_age, warm, &what);
            let lit = (0..image.height())
                .flat_map(|y| (0..image.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| image.pixel(x, y) != [0, 0, 0])
                .count();
            assert!(lit > 100, "{what}: only {lit} pixels lit");
            assert!(
                times.kernel_ms > 0.0 && times.frame_ms > 0.0 && times.draw_gpu_ms >= 0.0,
                "{times:?}"
            );
        }
        // A few more frames, for the record.
        for _ in 0..20 {
            frames.frame(Implementation::Rust, Dim3::xy(16, 16)).unwrap();
        }
        let (times, _) = frames.frame(Implementation::Rust, Dim3::xy(16, 16)).unwrap();
        note_skipped(&format!("{test}: {} frame times (ms): {times:?}", system.label()));
    }
}

#[test]
fn gpu_fountain_follows_the_cpu_bit_for_bit_given_the_probed_emitter() {
    let test = "gpu_fountain_follows_the_cpu_bit_for_bit_given_the_probed_emitter";
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let system = ParticleSystem::Fountain;
    let (grid, max_age, steps) = (ParticleGrid::new(256, 256), 600, 700);
    let start = initial_state(system, grid, max_age).unwrap();
    for implementation in implementations(&dut) {
        let path = launchers::fountain_emitter_positions(&dut, implementation, max_age, 0..steps).unwrap();
        for (frame, &e) in (0..steps).zip(&path) {
            let angle = ptxsuite::particle_scene::fountain_emitter_angle(frame);
            assert_eq!(launchers::emitter_mismatch(e, angle), None, "frame {frame}");
        }
        let mut expected = ParticleRows::all(start.clone());
        run_particle_rows(
            system,
            &mut expected,
            max_age,
            0..steps,
            FountainEmitter::Measured(&path),
        )
        .unwrap();
        let mut vertices = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.vertices)).unwrap();
        let mut state = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.state)).unwrap();
        for frame in 0..steps {
            let inputs = system.inputs(frame);
            let block = Dim3::xy(16, 16);
            launchers::particle_step(
                &dut,
                implementation,
                &mut vertices,
                &mut state,
                grid,
                block,
                max_age,
                inputs,
            )
            .unwrap();
        }
        let got = ParticleRows::all(ParticleState {
            grid,
            vertices: F32x4::as_floats(&vertices.to_host().unwrap()).to_vec(),
            state: F32x4::as_floats(&state.to_host().unwrap()).to_vec(),
        });
        assert_eq!(
            particle_rows_mismatch(&got, &expected),
            None,
            "{} after {steps} steps",
            implementation.label()
        );
    }
}

#[test]
fn gpu_the_particle_runner_steps_replays_reads_rows_and_ping_pongs_like_the_cpu() {
    let test = "gpu_the_particle_runner_steps_replays_reads_rows_and_ping_pongs_like_the_cpu";
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let (runners, waived) = launchers::particle_runners(&dut).unwrap();
    for (what, why) in waived {
        note_skipped(&format!("{what} skipped: {why}"));
    }
    let system = ParticleSystem::Swarm;
    let (grid, max_age, steps) = (ParticleGrid::new(37, 19), 40, 30);
    let start = initial_state(system, grid, max_age).unwrap();
    let expected = run_particle_steps(system, start.clone(), max_age, 0, steps);
    let rows = [3, 7, 18];
    let gravity_start = gravity_initial_state(GRAVITY_GRID);
    let mut gravity_expected = vec![gravity_start.clone()];
    for k in 0..2 {
        let mut next = gravity_expected[k].clone();
        ptxsuite::reference::gravity_step(&mut next);
        gravity_expected.push(next);
    }
    for runner in &runners {
        let mut clock = runner.clock().unwrap();
        for &implementation in runner.implementations() {
            let label = implementation.label();
            let mut population = runner.population(&start).unwrap();
            assert_eq!(population.grid(), grid);
            let block = Dim3::xy(5, 3);
            for frame in 0..steps {
                population
                    .step(implementation, block, max_age, system.inputs(frame))
                    .unwrap();
            }
            let stepped = ParticleRows::all(population.read_all().unwrap());
            assert_eq!(
                particle_rows_mismatch(&stepped, &ParticleRows::all(expected.clone())),
                None,
                "{label}: {steps} steps"
            );
            let some = population.read_rows(&rows).unwrap();
            assert_eq!(
                particle_rows_mismatch(&some, &ParticleRows::of(&expected, &rows).unwrap()),
                None,
                "{label}: rows {rows:?}"
            );
            // Back to the start, the same steps captured and replayed once.
            population.reset().unwrap();
            let reset = ParticleRows::all(population.read_all().unwrap());
            assert_eq!(
                particle_rows_mismatch(&reset, &ParticleRows::all(start.clone())),
                None,
                "{label}: reset"
            );
            let replay = runner
                .capture(steps, &mut |frame| {
                    population.step(implementation, block, max_age, system.inputs(frame))
                })
                .unwrap();
            assert_eq!(replay.steps(), steps);
            replay.replay().unwrap();
            let replayed = ParticleRows::all(population.read_all().unwrap());
            assert_eq!(
                particle_rows_mismatch(&replayed, &ParticleRows::all(expected.clone())),
                None,
                "{label}: one replay of {steps} captured steps"
            );
            let ms = clock.time_ms(&mut || replay.replay()).unwrap();
            assert!(ms.is_finite() && ms > 0.0, "{label}: a replay timed at {ms} ms");
            // The all-pairs swarm: step 0 writes the odd vertex buffer, step 1 the even one.
            for tiled in [false, true] {
                let mut gravity = runner.gravity(&gravity_start).unwrap();
                for k in 0..2u32 {
                    gravity.step(implementation, tiled, Dim3::xy(16, 16), k).unwrap();
                    let got = ParticleRows::all(gravity.read_after(k + 1).unwrap());
                    let want = ParticleRows::all(gravity_expected[k as usize + 1].clone());
                    assert_eq!(
                        particle_rows_mismatch(&got, &want),
                        None,
                        "{label} tiled {tiled}: step {k}"
                    );
                }
                gravity.reset().unwrap();
                let back = ParticleRows::all(gravity.read_after(2).unwrap());
                let want = ParticleRows::all(gravity_start.clone());
                assert_eq!(
                    particle_rows_mismatch(&back, &want),
                    None,
                    "{label} tiled {tiled}: reset"
                );
            }
        }
    }
}
