//! The buffers and textures an emulated launch may touch.

use crate::TextureObject;

#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub start: usize,
    pub bytes: usize,
    pub writable: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Texture {
    pub data: *const f32,
    pub texels: usize,
    pub channels: usize,
    /// Texels a row: `texels` for a 1-D texture; rows are `texels / width`.
    pub width: usize,
}

/// The slice standing for the module's constant array (`crate::constant_word`).
#[cfg(feature = "constant-memory")]
#[derive(Clone, Debug)]
pub(crate) struct ConstantWords {
    pub data: *const u32,
    pub words: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct MemoryMap {
    pub regions: Vec<Region>,
    pub textures: Vec<Texture>,
    #[cfg(feature = "constant-memory")]
    pub constant: Option<ConstantWords>,
}

// SAFETY: the raw texture and constant-word pointers refer to slices borrowed by `Emulator<'a>` for
// its whole life and are only read.
unsafe impl Send for MemoryMap {}
// SAFETY: as above.
unsafe impl Sync for MemoryMap {}

/// Where an access landed.
pub(crate) enum Lookup<'m> {
    Inside(&'m Region),
    Outside { base_region: Option<&'m Region> },
}

impl MemoryMap {
    pub fn add_region(&mut self, start: usize, bytes: usize, writable: bool) {
        self.regions.push(Region { start, bytes, writable });
    }

    pub fn add_texture(&mut self, data: *const f32, texels: usize, channels: usize, width: usize) -> TextureObject {
        self.textures.push(Texture {
            data,
            texels,
            channels,
            width,
        });
        TextureObject(self.textures.len() as u64)
    }

    /// Finds the region holding `[addr, addr + len)`; if none, the one holding `base`.
    pub fn lookup(&self, base: usize, addr: usize, len: usize) -> Lookup<'_> {
        let end = addr.checked_add(len);
        let inside = self
            .regions
            .iter()
            .find(|r| end.is_some_and(|end| addr >= r.start && end <= r.start + r.bytes));
        match inside {
            Some(r) => Lookup::Inside(r),
            None => Lookup::Outside {
                base_region: self
                    .regions
                    .iter()
                    .find(|r| base >= r.start && base <= r.start + r.bytes),
            },
        }
    }

    pub fn texture(&self, handle: TextureObject) -> Option<&Texture> {
        let index = usize::try_from(handle.0).ok()?.checked_sub(1)?;
        self.textures.get(index)
    }
}
