use std::rc::Rc;
use std::time::Instant;

use glow::HasContext;

use super::GlContext;
use crate::error::{Error, Result};
use crate::picture::RgbImage;

/// Positions at attribute 0, colours at attribute 1; each point adds
/// `weight × colour × alpha` (the software rasterizer's additive model).
const VERTEX_SHADER: &str = r#"#version 330 core
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
uniform mat4 view_projection;
uniform float weight;
out vec3 light;
void main() {
    gl_Position = view_projection * position;
    light = colour.rgb * colour.a * weight;
}
"#;

const FRAGMENT_SHADER: &str = r#"#version 330 core
in vec3 light;
out vec4 fragment;
void main() {
    fragment = vec4(light, 1.0);
}
"#;

/// Bytes per particle in the vertex buffer: a `float4` position and a `float4` colour.
const VERTEX_BYTES_PER_PARTICLE: usize = 32;

/// How long one [`PointRenderer::draw`] took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DrawTimes {
    /// GPU time of the clear and the draw call, from a `GL_TIME_ELAPSED` query.
    pub gpu_ms: f64,
    /// Host time from issuing the draw to `glFinish` returning (includes waiting for
    /// work queued before it, e.g. CUDA's unmap).
    pub host_ms: f64,
}

/// The notes' vertex buffer (`particles` positions then as many colours,
/// `float4` each: 8 floats per particle) and a framebuffer object of
/// `width × height` RGBA8 pixels the points are drawn into, additively
/// (`glBlendFunc(GL_ONE, GL_ONE)`), one pixel per point, as the notes'
/// `glDrawArrays(GL_POINTS, ...)`.
///
/// Holds its context (`Rc`): GL objects are deleted on drop while it is still current.
pub struct PointRenderer {
    context: Rc<GlContext>,
    particles: usize,
    width: u32,
    height: u32,
    vertex_buffer: glow::Buffer,
    vertex_array: glow::VertexArray,
    program: glow::Program,
    framebuffer: glow::Framebuffer,
    colour_buffer: glow::Renderbuffer,
    timer: glow::Query,
    view_projection: Option<glow::UniformLocation>,
    weight: Option<glow::UniformLocation>,
}

fn library(reason: String) -> Error {
    Error::Library(reason)
}

/// Compiles and links the two shaders, or says why not (the GLSL log).
///
/// # Safety
/// The context behind `gl` must be current.
unsafe fn link_program(gl: &glow::Context) -> Result<glow::Program> {
    // SAFETY: every call is on the current context with objects it just created.
    unsafe {
        let program = gl.create_program().map_err(library)?;
        let mut shaders = Vec::new();
        for (kind, source) in [
            (glow::VERTEX_SHADER, VERTEX_SHADER),
            (glow::FRAGMENT_SHADER, FRAGMENT_SHADER),
        ] {
            let shader = gl.create_shader(kind).map_err(library)?;
            gl.shader_source(shader, source);
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                let log = gl.get_shader_info_log(shader);
                gl.delete_shader(shader);
                gl.delete_program(program);
                return Err(library(format!("GLSL compilation failed: {log}")));
            }
            gl.attach_shader(program, shader);
            shaders.push(shader);
        }
        gl.link_program(program);
        for shader in shaders {
            gl.detach_shader(program, shader);
            gl.delete_shader(shader);
        }
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(library(format!("GLSL link failed: {log}")));
        }
        Ok(program)
    }
}

impl PointRenderer {
    /// Creates the vertex buffer (contents undefined), the shaders and the
    /// framebuffer on `context`, which must be current on this thread.
    pub fn new(context: Rc<GlContext>, particles: usize, width: u32, height: u32) -> Result<Self> {
        let bytes = particles
            .checked_mul(VERTEX_BYTES_PER_PARTICLE)
            .filter(|&b| b > 0 && b <= i32::MAX as usize)
            .ok_or_else(|| Error::InvalidInput(format!("{particles} particles do not fit one GL buffer")))?;
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(Error::InvalidInput(format!("a {width} x {height} framebuffer")));
        }
        let gl = context.gl();
        // SAFETY: all calls are on the current context (the caller's contract), with objects created here;
        // attribute offsets stay inside the buffer of `bytes` bytes allocated first.
        let renderer = unsafe {
            let vertex_buffer = gl.create_buffer().map_err(library)?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vertex_buffer));
            gl.buffer_data_size(glow::ARRAY_BUFFER, bytes as i32, glow::DYNAMIC_DRAW);
            let vertex_array = gl.create_vertex_array().map_err(library)?;
            gl.bind_vertex_array(Some(vertex_array));
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(1);
            gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, (particles * 16) as i32);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);

            let program = link_program(gl)?;
            let view_projection = gl.get_uniform_location(program, "view_projection");
            let weight = gl.get_uniform_location(program, "weight");

            let colour_buffer = gl.create_renderbuffer().map_err(library)?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(colour_buffer));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width as i32, height as i32);
            let framebuffer = gl.create_framebuffer().map_err(library)?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(colour_buffer),
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            let timer = gl.create_query().map_err(library)?;
            let renderer = Self {
                context: context.clone(),
                particles,
                width,
                height,
                vertex_buffer,
                vertex_array,
                program,
                framebuffer,
                colour_buffer,
                timer,
                view_projection,
                weight,
            };
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(library(format!(
                    "the {width} x {height} RGBA8 framebuffer is incomplete (0x{status:04X})"
                )));
            }
            renderer
        };
        context.check("creating the point renderer")?;
        Ok(renderer)
    }

    pub fn particles(&self) -> usize {
        self.particles
    }

    /// The GL name of the vertex buffer, for `cuGraphicsGLRegisterBuffer`.
    pub fn vertex_buffer_name(&self) -> u32 {
        self.vertex_buffer.0.get()
    }

    /// Bytes of the vertex buffer: 32 per particle.
    pub fn vertex_bytes(&self) -> usize {
        self.particles * VERTEX_BYTES_PER_PARTICLE
    }

    /// Replaces the vertex buffer's contents (`8 × particles` floats).
    pub fn upload_vertices(&self, floats: &[f32]) -> Result<()> {
        if floats.len() * 4 != self.vertex_bytes() {
            return Err(Error::InvalidInput(format!(
                "{} floats for a vertex buffer of {} particles",
                floats.len(),
                self.particles
            )));
        }
        let gl = self.context.gl();
        // SAFETY: the buffer holds exactly vertex_bytes() bytes, which `floats` covers; the context is current.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertex_buffer));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, bytemuck_floats(floats));
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
        self.context.check("uploading vertices")
    }

    /// The vertex buffer's contents as GL sees them (`glGetBufferSubData`).
    pub fn read_vertices(&self) -> Result<Vec<f32>> {
        let mut bytes = vec![0u8; self.vertex_bytes()];
        let gl = self.context.gl();
        // SAFETY: reads exactly the buffer's bytes into a slice of that length; the context is current.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertex_buffer));
            gl.get_buffer_sub_data(glow::ARRAY_BUFFER, 0, &mut bytes);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
        self.context.check("reading the vertex buffer")?;
        Ok(bytes
            .as_chunks::<4>()
            .0
            .iter()
            .map(|b| f32::from_ne_bytes(*b))
            .collect())
    }

    /// Clears the framebuffer to black and draws every particle as a point
    /// seen through `view_projection` (column-major, see
    /// [`Camera::column_major`](crate::picture::Camera::column_major)),
    /// each adding `weight × colour × alpha`; waits for it (`glFinish`).
    pub fn draw(&self, view_projection: &[f32; 16], weight: f32) -> Result<DrawTimes> {
        let gl = self.context.gl();
        let start = Instant::now();
        // SAFETY: every object was created on this context, which is current; the draw reads
        // `particles` vertices from each attribute, which the buffer holds.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.begin_query(glow::TIME_ELAPSED, self.timer);
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            gl.enable(glow::BLEND);
            gl.blend_func(glow::ONE, glow::ONE);
            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(self.view_projection.as_ref(), false, view_projection);
            gl.uniform_1_f32(self.weight.as_ref(), weight);
            gl.bind_vertex_array(Some(self.vertex_array));
            gl.draw_arrays(glow::POINTS, 0, self.particles as i32);
            gl.bind_vertex_array(None);
            gl.use_program(None);
            gl.end_query(glow::TIME_ELAPSED);
            gl.finish();
        }
        let host_ms = start.elapsed().as_secs_f64() * 1e3;
        // SAFETY: the query has ended and glFinish returned, so its result is available.
        let gpu_ns = unsafe { gl.get_query_parameter_u64(self.timer, glow::QUERY_RESULT) };
        self.context.check("drawing the points")?;
        Ok(DrawTimes {
            gpu_ms: gpu_ns as f64 / 1e6,
            host_ms,
        })
    }

    /// The framebuffer's pixels (`glReadPixels`, which waits for the drawing), top row first.
    pub fn read_pixels(&self) -> Result<RgbImage> {
        let mut rgba = vec![0u8; self.width as usize * self.height as usize * 4];
        let gl = self.context.gl();
        // SAFETY: reads width x height RGBA8 pixels (rows packed: 4-byte pixels) into a slice of that size.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                self.width as i32,
                self.height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut rgba)),
            );
        }
        self.context.check("reading the pixels")?;
        RgbImage::from_gl_rgba(self.width, self.height, &rgba)
            .ok_or_else(|| library("glReadPixels returned a buffer of the wrong size".into()))
    }

    /// The context the renderer draws with.
    pub fn context(&self) -> &Rc<GlContext> {
        &self.context
    }
}

/// `floats` as their native-endian bytes.
fn bytemuck_floats(floats: &[f32]) -> &[u8] {
    // SAFETY: f32 has no padding and u8 has alignment 1; the byte slice covers exactly the floats' memory.
    unsafe { std::slice::from_raw_parts(floats.as_ptr().cast::<u8>(), size_of_val(floats)) }
}

impl Drop for PointRenderer {
    fn drop(&mut self) {
        if self.context.make_current().is_err() {
            return; // no context to delete with: the objects go with it
        }
        let gl = self.context.gl();
        // SAFETY: the objects were created on this context and are deleted once.
        unsafe {
            gl.delete_query(self.timer);
            gl.delete_framebuffer(self.framebuffer);
            gl.delete_renderbuffer(self.colour_buffer);
            gl.delete_program(self.program);
            gl.delete_vertex_array(self.vertex_array);
            gl.delete_buffer(self.vertex_buffer);
        }
    }
}
