use std::ffi::{CStr, c_void};
use std::marker::PhantomData;
use std::sync::Arc;

use glow::HasContext;
use khronos_egl as egl;

use super::EglDisplay;
use super::egl_display::Egl;
use crate::error::{Error, Result};

const EGL_CONTEXT_MAJOR_VERSION: egl::Int = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: egl::Int = 0x30FB;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: egl::Int = 0x30FD;
const EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT: egl::Int = 0x1;

/// Desktop GL versions asked for, best first: 4.6 is what the suite wants
/// (NVIDIA gives it); Mesa's software renderer stops at 4.5; the renderer
/// needs only 3.3 (VAOs, framebuffer objects, timer queries, GLSL 3.30).
const VERSIONS: [(egl::Int, egl::Int); 4] = [(4, 6), (4, 5), (4, 3), (3, 3)];

/// The GL libraries whose exported functions glow calls, by their usual
/// names: glvnd's `libOpenGL.so.0` (GL without GLX), else `libGL.so.1`.
const GL_LIBRARIES: [&str; 2] = ["libOpenGL.so.0", "libGL.so.1"];

/// A desktop OpenGL core context on an EGL display, with no config and no
/// surface (it draws into framebuffer objects only), current on the thread
/// that made it; GL calls go through [`gl`](Self::gl).
///
/// Not `Send`: a GL context is current on one thread. Dropping it releases
/// and destroys the context.
pub struct GlContext {
    gl: glow::Context,
    // Field order is drop order: the GL library stays loaded while glow's pointers exist.
    _gl_library: Option<libloading::Library>,
    context: egl::Context,
    display: EglDisplay,
    version: (egl::Int, egl::Int),
    _one_thread: PhantomData<*const ()>,
}

fn not_available(reason: String) -> Error {
    Error::Waived(reason)
}

impl GlContext {
    /// Creates the context on `display` and makes it current on this thread.
    pub fn new(display: EglDisplay) -> Result<Self> {
        let egl: Arc<Egl> = display.egl.clone();
        if !display.has_extension("EGL_KHR_surfaceless_context") {
            return Err(not_available(format!(
                "{} lacks EGL_KHR_surfaceless_context (display extensions: {})",
                display.description(),
                display.extensions()
            )));
        }
        egl.bind_api(egl::OPENGL_API).map_err(|e| {
            not_available(format!(
                "eglBindAPI(EGL_OPENGL_API) failed on {}: {e}",
                display.description()
            ))
        })?;
        let config = Self::config(&egl, &display)?;
        let mut refusals = Vec::new();
        let mut created = None;
        for (major, minor) in VERSIONS {
            let attributes = [
                EGL_CONTEXT_MAJOR_VERSION,
                major,
                EGL_CONTEXT_MINOR_VERSION,
                minor,
                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                egl::NONE,
            ];
            match egl.create_context(display.display, config, None, &attributes) {
                Ok(context) => {
                    created = Some((context, (major, minor)));
                    break;
                }
                Err(e) => refusals.push(format!("{major}.{minor}: {e}")),
            }
        }
        let (context, version) = created.ok_or_else(|| {
            not_available(format!(
                "no desktop GL core context on {} ({})",
                display.description(),
                refusals.join(", ")
            ))
        })?;
        if let Err(e) = egl.make_current(display.display, None, None, Some(context)) {
            let _ = egl.destroy_context(display.display, context);
            return Err(not_available(format!("eglMakeCurrent without a surface failed: {e}")));
        }
        let gl_library = GL_LIBRARIES.iter().find_map(|name| {
            // SAFETY: loading the system's GL loader runs its initializers, which expect nothing of us.
            unsafe { libloading::Library::new(*name) }.ok()
        });
        let loader = |name: &CStr| -> *const c_void {
            if let Some(library) = &gl_library {
                // SAFETY: only the symbol's address is read; glow casts it to the entry point's real type.
                if let Ok(symbol) = unsafe { library.get::<*const c_void>(name.to_bytes_with_nul()) } {
                    return *symbol;
                }
            }
            egl.get_proc_address(&name.to_string_lossy())
                .map_or(std::ptr::null(), |f| f as *const c_void)
        };
        // SAFETY: the context is current on this thread, so glGetString(GL_VERSION) answers (glow reads it first).
        let gl = unsafe { glow::Context::from_loader_function_cstr(loader) };
        Ok(Self {
            gl,
            _gl_library: gl_library,
            context,
            display,
            version,
            _one_thread: PhantomData,
        })
    }

    /// `EGL_NO_CONFIG_KHR` where the display has `EGL_KHR_no_config_context`
    /// (or Mesa's older `EGL_MESA_configless_context`); otherwise, as a
    /// fallback, any config that can render desktop GL (the context still
    /// gets no surface).
    fn config(egl: &Egl, display: &EglDisplay) -> Result<egl::Config> {
        if display.has_extension("EGL_KHR_no_config_context") || display.has_extension("EGL_MESA_configless_context") {
            // SAFETY: EGL_NO_CONFIG_KHR is the null config, valid with these extensions.
            return Ok(unsafe { egl::Config::from_ptr(std::ptr::null_mut()) });
        }
        let attributes = [egl::RENDERABLE_TYPE, egl::OPENGL_BIT, egl::NONE];
        egl.choose_first_config(display.display, &attributes)
            .ok()
            .flatten()
            .ok_or_else(|| {
                not_available(format!(
                    "{} has neither EGL_KHR_no_config_context nor a desktop-GL config",
                    display.description()
                ))
            })
    }

    /// A context on the EGL device chosen by `choice` (see [`EglDisplay::open`]).
    pub fn open(choice: super::EglDeviceChoice) -> Result<Self> {
        Self::new(EglDisplay::open(choice)?)
    }

    /// The GL function table (glow); the context is current on this thread.
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// The core-profile version the context was created with.
    pub fn version(&self) -> (i32, i32) {
        self.version
    }

    pub fn display(&self) -> &EglDisplay {
        &self.display
    }

    /// `GL_RENDERER`, e.g. "NVIDIA H100 80GB HBM3/PCIe/SSE2" or "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub fn renderer(&self) -> String {
        // SAFETY: a string query on the current context.
        unsafe { self.gl.get_parameter_string(glow::RENDERER) }
    }

    /// `GL_VERSION` as the driver words it.
    pub fn version_string(&self) -> String {
        // SAFETY: a string query on the current context.
        unsafe { self.gl.get_parameter_string(glow::VERSION) }
    }

    /// Makes the context current on this thread again (after another context was).
    pub fn make_current(&self) -> Result<()> {
        self.display
            .egl
            .make_current(self.display.display, None, None, Some(self.context))
            .map_err(|e| Error::Library(format!("eglMakeCurrent failed: {e}")))
    }

    /// The first pending GL error, as an `Err` naming `during`.
    pub fn check(&self, during: &str) -> Result<()> {
        // SAFETY: glGetError on the current context.
        let code = unsafe { self.gl.get_error() };
        if code == glow::NO_ERROR {
            Ok(())
        } else {
            Err(Error::Library(format!("OpenGL error 0x{code:04X} during {during}")))
        }
    }
}

impl Drop for GlContext {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed release only leaks the context.
        let egl = &self.display.egl;
        let _ = egl.make_current(self.display.display, None, None, None);
        let _ = egl.destroy_context(self.display.display, self.context);
    }
}
