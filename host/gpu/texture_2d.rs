use std::rc::Rc;

use cudarc::driver::sys;
use kernels_gpu::device::TextureObject as TextureHandle;

use super::texture_handle::CreatedTexture;
use super::{CudaArray2d, Gpu};
use crate::error::Result;

/// How a 2-D texture turns coordinates into a value: the three rows of the
/// guide's Table 3.4 (filtering, normalized coordinates, addressing mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Linear filtering (bilinear interpolation between the four nearest
    /// texels, 8-bit fractional weights) instead of point sampling.
    pub linear: bool,
    /// Coordinates in `[0, 1)` across the texture instead of texel units.
    pub normalized: bool,
    /// Wrap addressing (`frac(u)`; normalized coordinates only) instead of clamp.
    pub wrap: bool,
}

impl Sampling {
    /// Point sampling, unnormalized coordinates, clamp: a plain fetch.
    pub const POINT: Self = Self {
        linear: false,
        normalized: false,
        wrap: false,
    };
}

/// A 2-D texture object over a [`CudaArray2d`] (`cuTexObjectCreate` on a
/// `CU_RESOURCE_TYPE_ARRAY`), destroyed on drop: the guide's `texture<float,
/// 2>` reference with its `filterMode`, `normalized` and `addressMode`, as a
/// texture object. It shares the array (several textures may sample one),
/// so the array outlives every texture over it.
pub struct Texture2d {
    texture: CreatedTexture,
    _array: Rc<CudaArray2d>,
}

impl Texture2d {
    /// A texture over all of `array`, sampled as `sampling` says. Wrap
    /// addressing is defined only with normalized coordinates (the guide's
    /// caveat): ask for it without them and the coordinates are not wrapped.
    pub fn over(gpu: &Gpu, array: &Rc<CudaArray2d>, sampling: Sampling) -> Result<Self> {
        // SAFETY: all-zero is a valid bit pattern for these plain C structs (null handles, zero enums).
        let mut resource: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        resource.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_ARRAY;
        resource.res.array = sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_1 { hArray: array.handle() };
        // SAFETY: as above; every field that matters is set below.
        let mut texture: sys::CUDA_TEXTURE_DESC = unsafe { std::mem::zeroed() };
        let address = if sampling.wrap {
            sys::CUaddress_mode::CU_TR_ADDRESS_MODE_WRAP
        } else {
            sys::CUaddress_mode::CU_TR_ADDRESS_MODE_CLAMP
        };
        texture.addressMode = [address; 3];
        texture.filterMode = if sampling.linear {
            sys::CUfilter_mode::CU_TR_FILTER_MODE_LINEAR
        } else {
            sys::CUfilter_mode::CU_TR_FILTER_MODE_POINT
        };
        if sampling.normalized {
            texture.flags |= sys::CU_TRSF_NORMALIZED_COORDINATES;
        }
        Ok(Self {
            texture: CreatedTexture::create(gpu, &resource, &texture)?,
            _array: Rc::clone(array),
        })
    }

    /// The kernel parameter for this texture.
    pub fn handle(&self) -> TextureHandle {
        self.texture.handle()
    }
}

#[cfg(test)]
mod tests {
    use cudarc::driver::sys;

    /// The texture descriptors start from all zeros: every enum in them must have a zero value
    /// (Rust aborts on a zeroed enum that has none, as `CUDA_MEMCPY2D`'s `CUmemorytype` did).
    #[test]
    fn the_descriptors_built_from_zeros_are_valid_when_zero() {
        // SAFETY: the test is that these are valid all-zero; an invalid one aborts here, not on a GPU.
        let resource: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        let texture: sys::CUDA_TEXTURE_DESC = unsafe { std::mem::zeroed() };
        assert_eq!(resource.resType, sys::CUresourcetype::CU_RESOURCE_TYPE_ARRAY);
        assert_eq!(texture.filterMode, sys::CUfilter_mode::CU_TR_FILTER_MODE_POINT);
    }
}
