//! OpenGL on a headless GPU, as the notes' interop sample needs it, with no
//! window system and no GL library at build time.
//!
//! * [`EglDisplay`]: `libEGL.so.1` opened at run time (khronos-egl's dynamic
//!   loading), the GPU's own EGL device found with
//!   `EGL_EXT_device_enumeration` and matched to the CUDA device under test
//!   (`EGL_CUDA_DEVICE_NV`), a display on it through
//!   `EGL_EXT_platform_device`: no X server.
//! * [`GlContext`]: a desktop OpenGL core context (4.6 asked first) with no
//!   EGL config and no surface (`EGL_KHR_no_config_context`,
//!   `EGL_KHR_surfaceless_context`; a display without the first gets a
//!   desktop-GL config, still no surface), GL entry points from
//!   `libOpenGL.so.0` / `libGL.so.1` (glvnd) or `eglGetProcAddress`, called
//!   through glow.
//! * [`PointRenderer`]: the vertex buffer of 8 floats per particle that CUDA
//!   writes, drawn as additive points into a framebuffer object, and the
//!   pixels read back.
//!
//! Without the libraries every constructor returns
//! [`Error::Waived`](crate::Error::Waived) saying what is
//! missing; nothing here panics for want of a driver.

mod egl_display;
mod gl_context;
mod point_renderer;

pub use egl_display::{EglDeviceChoice, EglDisplay};
pub use gl_context::GlContext;
pub use point_renderer::{DrawTimes, PointRenderer};
