use std::rc::Rc;

use super::runner::distinct;
use super::{Image2d, Sampling, Texture2dRunner, TileFetch, global_2d_tile_load, texture_2d_tile_sample};
use crate::error::{Error, Result};
use crate::gpu::{CudaArray2d, DeviceBuffer, Texture2d};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The 2-D tile kernels of the PTX implementations (Rust, and the CUDA C
/// twins) on the device's CUDA context, on one copy of the image: a
/// row-major buffer and a CUDA array (block-linear) under 2-D texture
/// objects, timed by CUDA events.
pub struct CudaTexture2dRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    timer: CudaTimer<'a>,
    loaded: Option<LoadedImage>,
}

/// The image on the device: its textures (over one CUDA array), the output and the row-major input.
struct LoadedImage {
    image: Image2d,
    textures: Vec<(Sampling, Texture2d)>,
    odata: DeviceBuffer<f32>,
    idata: DeviceBuffer<f32>,
}

impl<'a> CudaTexture2dRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            timer: CudaTimer::new(dut.gpu())?,
            loaded: None,
        })
    }

    fn loaded(&mut self) -> Result<&mut LoadedImage> {
        self.loaded.as_mut().ok_or_else(not_loaded)
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no image loaded".into())
}

impl LoadedImage {
    /// Enqueues `fetch` by `implementation` (the launchers check the shape).
    fn enqueue(
        &mut self,
        dut: &DeviceUnderTest,
        implementation: Implementation,
        fetch: TileFetch,
        tile_width: u32,
    ) -> Result<()> {
        let Self {
            image,
            textures,
            odata,
            idata,
        } = self;
        let Some(sampling) = fetch.sampling else {
            return global_2d_tile_load(dut, implementation, odata, idata, *image, tile_width);
        };
        let Some((_, texture)) = textures.iter().find(|(loaded, _)| *loaded == sampling) else {
            return Err(Error::InvalidLaunch {
                kernel: fetch.kernel(),
                reason: format!("no texture of {sampling:?} was loaded"),
            });
        };
        texture_2d_tile_sample(
            dut,
            implementation,
            odata,
            texture,
            (*image, tile_width),
            fetch.placement,
        )
    }
}

impl Texture2dRunner for CudaTexture2dRunner<'_> {
    fn implementations(&self) -> Vec<Implementation> {
        self.implementations.clone()
    }

    fn load(&mut self, texels: &[f32], image: Image2d, samplings: &[Sampling]) -> Result<()> {
        self.loaded = None; // free the last image first
        let gpu = self.dut.gpu();
        let array = Rc::new(CudaArray2d::from_host(
            gpu,
            texels,
            image.width as usize,
            image.height as usize,
        )?);
        let textures = distinct(samplings)
            .into_iter()
            .map(|sampling| Ok((sampling, Texture2d::over(gpu, &array, sampling)?)))
            .collect::<Result<_>>()?;
        self.loaded = Some(LoadedImage {
            image,
            textures,
            odata: DeviceBuffer::uninit(gpu, texels.len())?,
            idata: DeviceBuffer::from_host(gpu, texels)?,
        });
        Ok(())
    }

    fn clear_output(&mut self) -> Result<()> {
        self.loaded()?.odata.fill(f32::NAN)
    }

    fn time(
        &mut self,
        implementation: Implementation,
        fetch: TileFetch,
        tile_width: u32,
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let dut = self.dut;
        let loaded = self.loaded.as_mut().ok_or_else(not_loaded)?;
        time_per_launch(&mut self.timer, settings, &mut || {
            loaded.enqueue(dut, implementation, fetch, tile_width)
        })
    }

    fn fetch_once(&mut self, implementation: Implementation, fetch: TileFetch, tile_width: u32) -> Result<()> {
        let dut = self.dut;
        self.loaded()?.enqueue(dut, implementation, fetch, tile_width)?;
        dut.gpu().synchronize()
    }

    fn read_output(&self) -> Result<Vec<f32>> {
        self.loaded.as_ref().ok_or_else(not_loaded)?.odata.to_host()
    }
}
