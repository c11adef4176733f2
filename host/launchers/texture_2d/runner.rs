use super::{CudaTexture2dRunner, Image2d, SamplePlacement, Sampling};
use crate::error::Result;
use crate::launchers::twin_waivers::{KernelSet, kernel_set_plan};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One fetch of the family: plain loads over the row-major image
/// (`sampling: None`, `global_2d_tile_load`), or the image's texture sampled
/// as `sampling` says where `placement` puts each thread's texel
/// (`texture_2d_tile_sample`; plain loads read the texel itself).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileFetch {
    pub sampling: Option<Sampling>,
    pub placement: SamplePlacement,
}

impl TileFetch {
    /// The kernel that makes this fetch.
    pub fn kernel(&self) -> &'static str {
        match self.sampling {
            Some(_) => "texture_2d_tile_sample",
            None => "global_2d_tile_load",
        }
    }
}

/// One programming model's side of the 2-D tile family, with its own copy
/// of the image (a row-major buffer for plain loads, a texture source
/// sampled through one texture per sampling) and its own output, a value
/// per texel (one thread a texel), timed by its own clock.
pub trait Texture2dRunner {
    /// Whose kernels it launches, in the order their series come.
    fn implementations(&self) -> Vec<Implementation>;
    /// Uploads `texels`, a row-major `image`, as the buffer and as the
    /// texture source under a texture for each distinct sampling of
    /// `samplings`, and sizes the output (the last image's are freed first).
    fn load(&mut self, texels: &[f32], image: Image2d, samplings: &[Sampling]) -> Result<()>;
    /// Fills the output with NaN (so a kernel that writes nothing fails its check).
    fn clear_output(&mut self) -> Result<()>;
    /// Per-launch milliseconds of each sample of `fetch` by `implementation`
    /// with warp tiles `tile_width` texels wide over the loaded image
    /// ([`time_per_launch`](crate::timing::time_per_launch): a warm-up, then `--samples` of `--reps`).
    fn time(
        &mut self,
        implementation: Implementation,
        fetch: TileFetch,
        tile_width: u32,
        settings: &RunSettings,
    ) -> Result<Vec<f64>>;
    /// One launch of `fetch`, waited for (the self-test's).
    fn fetch_once(&mut self, implementation: Implementation, fetch: TileFetch, tile_width: u32) -> Result<()>;
    /// The output, a value per texel of the loaded image.
    fn read_output(&self) -> Result<Vec<f32>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (CUDA: Rust, and CUDA C where its twins
/// loaded) and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn texture_2d_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn Texture2dRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, waived) = kernel_set_plan(KernelSet::WithTwins, dut.ptx_implementations());
    let runners: Vec<Box<dyn Texture2dRunner + '_>> = vec![Box::new(CudaTexture2dRunner::new(dut, implementations)?)];
    Ok((runners, waived))
}

/// `samplings` without repeats, in first-seen order: one texture each.
pub(super) fn distinct(samplings: &[Sampling]) -> Vec<Sampling> {
    let mut seen: Vec<Sampling> = Vec::new();
    for &sampling in samplings {
        if !seen.contains(&sampling) {
            seen.push(sampling);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::{Sampling, distinct};

    #[test]
    fn one_texture_a_sampling_in_first_seen_order() {
        let point = Sampling::POINT;
        let linear = Sampling { linear: true, ..point };
        assert_eq!(distinct(&[point, linear, point, linear]), vec![point, linear]);
        assert!(distinct(&[]).is_empty());
    }
}
