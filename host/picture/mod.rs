//! Pictures of the particle systems, made on the host without a GPU: a
//! perspective camera, a software point rasterizer with additive colour (and
//! the fountain's table top), and PNG / animated-PNG files.
//!
//! A host rasterizer rather than a GPU splat kernel: the pictures can then be
//! made anywhere (CI, a laptop, the docs) from the CPU simulation, and they
//! are independent of the OpenGL path in [`crate::gl`], which draws the same
//! vertex buffer with the same [`Camera`] matrix and can be compared with them.

mod camera;
mod particle_pictures;
mod png_file;
mod point_rasterizer;
mod rgb_image;

pub use camera::Camera;
pub use particle_pictures::{
    PictureSettings, fountain_camera, render_particles, swarm_camera, write_particle_pictures,
};
pub use png_file::{encode_apng, encode_png, read_png, write_apng, write_png};
pub use point_rasterizer::{PointRasterizer, TableTop, render_frame};
pub use rgb_image::{RgbImage, frame_strip};
