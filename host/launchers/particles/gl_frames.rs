use std::rc::Rc;
use std::time::Instant;

use cudarc::driver::{CudaEvent, sys};
use kernels_gpu::device::{Dim3, F32x4};

use super::{InteropFrames, particle_step_global};
use crate::error::{DriverResultExt, Error, Result};
use crate::gl::{EglDeviceChoice, GlContext, PointRenderer};
use crate::gpu::{DeviceBuffer, GraphicsResource};
use crate::particle_scene::{ParticleGrid, ParticleState, ParticleSystem, float4s, initial_state};
use crate::picture::{Camera, PointRasterizer, RgbImage, fountain_camera, swarm_camera};
use crate::testbed::{DeviceUnderTest, Implementation};

/// How long each phase of one frame took, in milliseconds.
///
/// * `map_ms`, `kernel_ms`, `unmap_ms`: CUDA events recorded on the suite's
///   stream around `cuGraphicsMapResources`, the kernel and
///   `cuGraphicsUnmapResources` (GPU time between the events).
/// * `draw_gpu_ms`: a `GL_TIME_ELAPSED` query around the clear and the draw.
/// * `draw_host_ms`: host clock from issuing the draw to `glFinish` returning.
/// * `read_back_ms`: host clock around `glReadPixels` into host memory
///   (synchronous; the draw has finished by then).
/// * `frame_ms`: host clock around the whole frame, the notes' `1 / fps`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    pub map_ms: f64,
    pub kernel_ms: f64,
    pub unmap_ms: f64,
    pub draw_gpu_ms: f64,
    pub draw_host_ms: f64,
    pub read_back_ms: f64,
    pub frame_ms: f64,
}

/// The notes' interop loop on one GPU: the particle system's vertex buffer
/// lives in OpenGL (a context on the EGL device that is the CUDA device
/// under test) and is registered with CUDA; each [`frame`](Self::frame)
/// maps it, runs one step of the kernel on it, unmaps it, draws the points
/// into a framebuffer object and reads the pixels back, timing each phase.
///
/// Not `Send`: the GL context is current on the thread that made it, and
/// every call must come from that thread.
pub struct ParticleFrames<'gpu> {
    // Field order is drop order: CUDA lets go of the buffer before GL deletes it.
    resource: GraphicsResource,
    renderer: PointRenderer,
    state: DeviceBuffer<F32x4>,
    events: [CudaEvent; 4],
    dut: &'gpu DeviceUnderTest,
    system: ParticleSystem,
    grid: ParticleGrid,
    max_age: u32,
    camera: Camera,
    weight: f32,
    next_frame: u32,
}

impl<'gpu> ParticleFrames<'gpu> {
    /// Sets up `system` on `gpu`: an OpenGL context on the EGL device that is
    /// `gpu`'s CUDA device, a vertex buffer and a `width × height`
    /// framebuffer, the scene's initial state, and the buffer registered
    /// with CUDA. `Err(Waived)` says why there is no OpenGL (no EGL, no
    /// NVIDIA EGL device matching the CUDA device).
    pub fn new(
        dut: &'gpu DeviceUnderTest,
        system: ParticleSystem,
        grid: ParticleGrid,
        max_age: u32,
        (width, height): (u32, u32),
    ) -> Result<Self> {
        let context = Rc::new(GlContext::open(EglDeviceChoice::CudaOrdinal(dut.info().ordinal.0))?);
        Self::with_context(dut, context, system, grid, max_age, (width, height))
    }

    /// As [`new`](Self::new) on an OpenGL context already made (and current
    /// on this thread), which must run on `gpu`'s device.
    pub fn with_context(
        dut: &'gpu DeviceUnderTest,
        context: Rc<GlContext>,
        system: ParticleSystem,
        grid: ParticleGrid,
        max_age: u32,
        (width, height): (u32, u32),
    ) -> Result<Self> {
        let start = initial_state(system, grid, max_age)?;
        let renderer = PointRenderer::new(context, grid.particles(), width, height)?;
        renderer.upload_vertices(&start.vertices)?;
        let state = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.state))?;
        // SAFETY: the buffer is the renderer's, on the current context; the context runs on gpu's device
        // (the caller's contract, or matched by EGL_CUDA_DEVICE_NV in `new`); the resource is a field
        // declared before the renderer, so it is unregistered before the buffer is deleted.
        let resource = unsafe { GraphicsResource::register_gl_buffer(dut.gpu(), renderer.vertex_buffer_name())? };
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let event = || dut.gpu().context().new_event(flags).during("cuEventCreate");
        let aspect = width as f32 / height as f32;
        Ok(Self {
            resource,
            renderer,
            state,
            events: [event()?, event()?, event()?, event()?],
            dut,
            system,
            grid,
            max_age,
            camera: match system {
                ParticleSystem::Fountain => fountain_camera(aspect),
                ParticleSystem::Swarm => swarm_camera(aspect),
            },
            weight: PointRasterizer::default_weight(width, height, grid.particles()),
            next_frame: 0,
        })
    }

    /// The GL context (its renderer string, version, EGL device).
    pub fn context(&self) -> &Rc<GlContext> {
        self.renderer.context()
    }

    /// The camera the points are drawn through.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// The frame number the next step will use (frames count from 0).
    pub fn next_frame(&self) -> u32 {
        self.next_frame
    }

    /// One frame: map, one step of the kernel (`implementation`, blocks of
    /// `block`), unmap, draw, read back. Returns the phases' times and the
    /// picture read back.
    pub fn frame(&mut self, implementation: Implementation, block: Dim3) -> Result<(FrameTimes, RgbImage)> {
        let start = Instant::now();
        // CUDA synchronizes with the GL context current on this thread when it maps and unmaps.
        self.renderer.context().make_current()?;
        let stream = self.dut.gpu().stream();
        let [e0, e1, e2, e3] = &self.events;
        e0.record(stream).during("cuEventRecord")?;
        let mut mapped = self.resource.map()?;
        e1.record(stream).during("cuEventRecord")?;
        let inputs = self.system.inputs(self.next_frame);
        particle_step_global(
            self.dut,
            implementation,
            {
                // The launcher counts the vertex buffer in floats.
                let (vertices, float4s) = mapped.as_global_mut::<F32x4>();
                (vertices, 4 * float4s)
            },
            &mut self.state,
            self.grid,
            block,
            self.max_age,
            inputs,
        )?;
        e2.record(stream).during("cuEventRecord")?;
        mapped.unmap()?;
        e3.record(stream).during("cuEventRecord")?;
        self.dut
            .gpu()
            .wait_for_event(e3, "a particle frame's map, kernel and unmap")?;
        self.next_frame += 1;
        let elapsed = |a: &CudaEvent, b: &CudaEvent| a.elapsed_ms(b).map(f64::from).during("cuEventElapsedTime");
        let (map_ms, kernel_ms, unmap_ms) = (elapsed(e0, e1)?, elapsed(e1, e2)?, elapsed(e2, e3)?);
        self.renderer.context().make_current()?;
        let draw = self.renderer.draw(&self.camera.column_major(), self.weight)?;
        let read_start = Instant::now();
        let image = self.renderer.read_pixels()?;
        let read_back_ms = read_start.elapsed().as_secs_f64() * 1e3;
        let times = FrameTimes {
            map_ms,
            kernel_ms,
            unmap_ms,
            draw_gpu_ms: draw.gpu_ms,
            draw_host_ms: draw.host_ms,
            read_back_ms,
            frame_ms: start.elapsed().as_secs_f64() * 1e3,
        };
        Ok((times, image))
    }

    /// Draws the vertex buffer as it is, with no step, and reads the picture
    /// back: the frame of a state set with [`set_state`](Self::set_state).
    pub fn draw(&mut self) -> Result<RgbImage> {
        self.renderer.context().make_current()?;
        self.renderer.draw(&self.camera.column_major(), self.weight)?;
        self.renderer.read_pixels()
    }

    /// The whole simulation state: the vertex buffer as OpenGL reads it
    /// (`glGetBufferSubData`) and the state buffer from CUDA.
    pub fn read_state(&self) -> Result<ParticleState> {
        self.renderer.context().make_current()?;
        let vertices = self.renderer.read_vertices()?;
        let state = F32x4::as_floats(&self.state.to_host()?).to_vec();
        Ok(ParticleState {
            grid: self.grid,
            vertices,
            state,
        })
    }

    /// Replaces the simulation state and the frame counter: the vertex
    /// buffer written through CUDA (mapped, copied, unmapped), the state buffer copied.
    pub fn set_state(&mut self, state: &ParticleState, next_frame: u32) -> Result<()> {
        if state.grid != self.grid {
            return Err(Error::InvalidInput(format!(
                "a state of {:?} for frames of {:?}",
                state.grid, self.grid
            )));
        }
        self.write_vertices_through_cuda(&state.vertices)?;
        self.state.copy_from_host(&float4s(&state.state))?;
        self.next_frame = next_frame;
        Ok(())
    }

    /// Writes `floats` into the GL vertex buffer through CUDA: map, copy, unmap.
    pub fn write_vertices_through_cuda(&mut self, floats: &[f32]) -> Result<()> {
        self.renderer.context().make_current()?;
        let mut mapped = self.resource.map()?;
        mapped.copy_from_host(floats)?;
        mapped.unmap()?;
        self.dut.gpu().synchronize()
    }
}

impl InteropFrames for ParticleFrames<'_> {
    fn describe(&self) -> String {
        let context = self.context();
        format!(
            "OpenGL {}.{} on {} ({})",
            context.version().0,
            context.version().1,
            context.display().description(),
            context.renderer()
        )
    }

    fn set_state(&mut self, state: &ParticleState, next_frame: u32) -> Result<()> {
        ParticleFrames::set_state(self, state, next_frame)
    }

    fn timed_frame(&mut self, implementation: Implementation, block: Dim3) -> Result<FrameTimes> {
        Ok(self.frame(implementation, block)?.0)
    }

    fn read_state(&self) -> Result<ParticleState> {
        ParticleFrames::read_state(self)
    }

    fn draw(&mut self) -> Result<RgbImage> {
        ParticleFrames::draw(self)
    }
}
