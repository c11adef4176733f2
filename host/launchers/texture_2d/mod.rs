//! The 2-D tile family of the guide's §3.2.4 and Table 3.4: the shape check,
//! the typed, bounds-checked launchers ([`global_2d_tile_load`] over a
//! row-major buffer, [`texture_2d_tile_sample`] through a 2-D texture object)
//! and the family's runners, one per programming model ([`Texture2dRunner`],
//! chosen by [`texture_2d_runners`]). There is no OpenCL C twin (it would
//! sample an OpenCL image): its runner would join in `texture_2d_runners`.

mod cuda_runner;
mod runner;

pub use crate::gpu::Sampling;
pub use cuda_runner::CudaTexture2dRunner;
pub use runner::{Texture2dRunner, TileFetch, texture_2d_runners};

use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::{COPY_BLOCK_THREADS, global_2d_tile_load_params, texture_2d_tile_sample_params};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape, Texture2d};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the 2-D tile kernels: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["global_2d_tile_load", "texture_2d_tile_sample"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    ..Family::NONE
};

/// An image of `width × height` texels, row-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image2d {
    pub width: u32,
    pub height: u32,
}

impl Image2d {
    pub fn texels(self) -> u64 {
        self.width as u64 * self.height as u64
    }
}

/// Checks a tile launch over `image` with warp tiles `tile_width` wide: the
/// tile is a power of two ≤ 32 texels wide, the width a power of two ≥ 32
/// (the kernels map threads to texels with shifts), the tiles cover the image
/// exactly (`32 / tile_width` divides the height), one thread
/// per texel in whole blocks of [`COPY_BLOCK_THREADS`], every texel index
/// inside a `u32`, and `odata` holds a value per thread.
pub fn texture_2d_tile_shape(
    kernel: &'static str,
    image: Image2d,
    tile_width: u32,
    out_len: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel, reason };
    if !(tile_width.is_power_of_two() && tile_width <= 32) {
        return Err(invalid(format!(
            "tile width {tile_width} is not a power of two up to 32"
        )));
    }
    let tile_height = 32 / tile_width;
    let Image2d { width, height } = image;
    if !width.is_power_of_two() || width < 32 || height == 0 || !height.is_multiple_of(tile_height) {
        return Err(invalid(format!(
            "{width} x {height} texels are not whole {tile_width} x {tile_height} tiles over a power-of-two width of \
             at least 32"
        )));
    }
    let threads = image.texels();
    let block = COPY_BLOCK_THREADS as u64;
    if !threads.is_multiple_of(block) || threads > u32::MAX as u64 {
        return Err(invalid(format!(
            "{threads} texels are not whole blocks of {block} threads inside a u32 index"
        )));
    }
    if threads > out_len as u64 {
        return Err(invalid(format!(
            "{threads} threads write past the {out_len}-element output"
        )));
    }
    Ok(LaunchShape {
        grid: Dim3::x((threads / block) as u32),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Launches `global_2d_tile_load`: `odata[t]` = the texel of `idata` (a
/// row-major `image`) that warp tile `tile_width` gives thread `t`.
pub fn global_2d_tile_load(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<f32>,
    idata: &DeviceBuffer<f32>,
    image: Image2d,
    tile_width: u32,
) -> Result<()> {
    const K: &str = "global_2d_tile_load";
    let shape = texture_2d_tile_shape(K, image, tile_width, odata.len())?;
    if image.texels() > idata.len() as u64 {
        return Err(Error::InvalidLaunch {
            kernel: K,
            reason: format!("the image has {} texels, the input {}", image.texels(), idata.len()),
        });
    }
    let args = (
        odata.as_global_mut().cast(),
        idata.as_global().cast(),
        image.width,
        tile_width,
    );
    // SAFETY: the shape check proved every thread's texel and output index in bounds.
    unsafe { dut.launch::<global_2d_tile_load_params>(implementation, shape, args) }
}

/// Where a [`texture_2d_tile_sample`] thread samples: `((x + offset.0) *
/// scale.0, (y + offset.1) * scale.1)` for its texel `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplePlacement {
    pub offset: (f32, f32),
    pub scale: (f32, f32),
}

/// Launches `texture_2d_tile_sample`: `odata[t]` = `texture` sampled where
/// `placement` puts the texel that warp tile `tile_width` gives thread `t`.
pub fn texture_2d_tile_sample(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<f32>,
    texture: &Texture2d,
    (image, tile_width): (Image2d, u32),
    placement: SamplePlacement,
) -> Result<()> {
    let shape = texture_2d_tile_shape("texture_2d_tile_sample", image, tile_width, odata.len())?;
    let SamplePlacement { offset, scale } = placement;
    let args = (
        odata.as_global_mut(),
        texture.handle(),
        image.width,
        tile_width,
        offset.0,
        offset.1,
        scale.0,
        scale.1,
    );
    // SAFETY: writes proved in bounds; a fetch anywhere is resolved by the texture's addressing mode.
    unsafe { dut.launch::<texture_2d_tile_sample_params>(implementation, shape, args) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IMAGE: Image2d = Image2d { width: 64, height: 32 };

    #[test]
    fn whole_tiles_of_a_power_of_two_width_launch_one_thread_a_texel() {
        for tile in [1, 2, 4, 8, 16, 32] {
            let shape = texture_2d_tile_shape("k", IMAGE, tile, 2048).expect("valid");
            assert_eq!(shape.grid.x * shape.block.x, 2048, "tile {tile}");
        }
    }

    #[test]
    fn bad_tiles_images_and_outputs_are_refused() {
        for tile in [0, 3, 64] {
            assert!(texture_2d_tile_shape("k", IMAGE, tile, 2048).is_err(), "tile {tile}");
        }
        let short = Image2d { width: 64, height: 16 };
        assert!(
            texture_2d_tile_shape("k", short, 1, 1024).is_err(),
            "16 rows are not 1 x 32 tiles"
        );
        let narrow = Image2d { width: 48, height: 32 };
        assert!(
            texture_2d_tile_shape("k", narrow, 32, 1536).is_err(),
            "48 is not whole 32-wide tiles"
        );
        assert!(texture_2d_tile_shape("k", IMAGE, 8, 2047).is_err(), "output too short");
        let odd = Image2d { width: 32, height: 4 };
        assert!(texture_2d_tile_shape("k", odd, 8, 128).is_err(), "not a whole block");
        let huge = Image2d {
            width: 1 << 17,
            height: 1 << 15,
        };
        assert!(
            texture_2d_tile_shape("k", huge, 8, usize::MAX).is_err(),
            "past a u32 index"
        );
    }
}
