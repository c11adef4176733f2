//! Texture fetches through a texture object (`tex1Dfetch` and `tex2D` in CUDA C).

/// A `CUtexObject` handle, passed to a kernel as a `.u64` parameter (the
/// host creates it with `cuTexObjectCreate`; the emulator's
/// [`texture_f32`](crate::emulator::Emulator::texture_f32) hands one out).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureObject(pub u64);

/// Fetches texel `index` of a 1-D texture over linear memory, as four `f32`
/// components (PTX `tex.1d.v4.f32.s32`).
///
/// Out-of-range indices return zeros, as the hardware does for textures bound
/// to linear memory. For a one-channel `f32` texture only `.0[0]` is meaningful.
#[inline(always)]
pub fn tex1d_fetch_f32x4(texture: TextureObject, index: i32) -> [f32; 4] {
    #[cfg(target_arch = "nvptx64")]
    {
        let (x, y, z, w): (f32, f32, f32, f32);
        // SAFETY: a texture fetch only reads through the texture unit; an invalid index returns zeros.
        unsafe {
            core::arch::asm!(
                "tex.1d.v4.f32.s32 {{{x}, {y}, {z}, {w}}}, [{tex}, {{{i}}}];",
                x = out(reg32) x,
                y = out(reg32) y,
                z = out(reg32) z,
                w = out(reg32) w,
                tex = in(reg64) texture.0,
                i = in(reg32) index,
                options(pure, readonly, nostack),
            );
        }
        [x, y, z, w]
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::thread_context::texture_fetch(texture, index)
    }
}

/// Samples a 2-D texture at coordinates `(u, v)`, as four `f32` components
/// (PTX `tex.2d.v4.f32.f32`, CUDA C's `tex2D<float4>`/`tex2D<float>`).
///
/// What the coordinates mean is the texture object's: unnormalized
/// (texel `x` spans `[x, x + 1)`) or normalized (`[0, 1)` spans the width),
/// point sampling or linear filtering (the hardware's bilinear interpolation
/// with 8-bit fractional weights), clamp or wrap addressing. The emulator
/// models point sampling with unnormalized coordinates and clamp addressing
/// only. For a one-channel `f32` texture only `.0[0]` is meaningful.
#[inline(always)]
pub fn tex2d_f32x4(texture: TextureObject, u: f32, v: f32) -> [f32; 4] {
    #[cfg(target_arch = "nvptx64")]
    {
        let (x, y, z, w): (f32, f32, f32, f32);
        // SAFETY: a texture fetch only reads through the texture unit; any coordinate is resolved by its addressing mode.
        unsafe {
            core::arch::asm!(
                "tex.2d.v4.f32.f32 {{{x}, {y}, {z}, {w}}}, [{tex}, {{{u}, {v}}}];",
                x = out(reg32) x,
                y = out(reg32) y,
                z = out(reg32) z,
                w = out(reg32) w,
                tex = in(reg64) texture.0,
                u = in(reg32) u,
                v = in(reg32) v,
                options(pure, readonly, nostack),
            );
        }
        [x, y, z, w]
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::thread_context::texture_fetch_2d(texture, u, v)
    }
}
