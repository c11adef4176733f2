//! CUDA–OpenGL interop, as the notes' particle samples run: a kernel writes
//! the particles straight into the OpenGL vertex buffer, which OpenGL then
//! draws. Built on [`crate::gpu`] (the CUDA registration), [`crate::gl`]
//! (EGL, the context, the renderer) and [`crate::launchers`] (the kernels).

mod particle_frames;

pub use particle_frames::{FrameTimes, ParticleFrames};
