use super::opencl::matvec;
use super::{MatVecEntry, MatVecRunner, MatVecVersion};
use crate::error::{Error, Result};
use crate::opencl::ClBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The matrix-vector versions' OpenCL C twins on the OpenCL device that is the
/// GPU under test, on `M`, `V`, `W` buffers of their own.
pub struct OpenClMatVecRunner<'a> {
    side: &'a OpenClSide,
    /// Work-groups that fill the GPU once for each version: the CUDA side's
    /// figure for the Rust kernel, so every implementation launches the same grid.
    waves: Vec<(MatVecVersion, u32)>,
    buffers: Option<(ClBuffer<f32>, ClBuffer<f32>, ClBuffer<f32>)>,
    shape: (u32, u32),
}

impl<'a> OpenClMatVecRunner<'a> {
    pub fn new(side: &'a OpenClSide, waves: Vec<(MatVecVersion, u32)>) -> Self {
        Self {
            side,
            waves,
            buffers: None,
            shape: (0, 0),
        }
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no matrix loaded".into())
}

impl MatVecRunner for OpenClMatVecRunner<'_> {
    fn entries(&self) -> Vec<MatVecEntry> {
        MatVecVersion::ALL
            .into_iter()
            .map(|version| MatVecEntry {
                implementation: Implementation::OpenClC,
                version: Some(version),
                kernel: version.kernel(),
                grid_cap: None,
            })
            .collect()
    }

    fn load(&mut self, m: &[f32], v: &[f32], width: u32, height: u32) -> Result<()> {
        self.buffers = None; // free the last problem's buffers first
        let (context, queue) = (self.side.context(), self.side.queue());
        self.buffers = Some((
            ClBuffer::from_host(context, queue, m)?,
            ClBuffer::from_host(context, queue, v)?,
            ClBuffer::new(context, height as usize)?,
        ));
        self.shape = (width, height);
        Ok(())
    }

    fn fill_w(&mut self, value: f32) -> Result<()> {
        let queue = self.side.queue();
        Ok(self.buffers.as_mut().ok_or_else(not_loaded)?.2.fill(queue, value)?)
    }

    fn time(&mut self, entry: &MatVecEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let version = entry
            .version
            .ok_or_else(|| Error::InvalidInput("OpenCL runs the versions only".into()))?;
        let wave = self.waves.iter().find(|(v, _)| *v == version).map_or(1, |(_, w)| *w);
        let (side, (width, height)) = (self.side, self.shape);
        let (m, v, w) = self.buffers.as_mut().ok_or_else(not_loaded)?;
        time_per_launch(&mut OpenClTimer(side.queue()), settings, &mut || {
            matvec(side.twins(), side.queue(), version, m, width, height, v, w, wave)
        })
    }

    fn read_w(&mut self) -> Result<Vec<f32>> {
        let queue = self.side.queue();
        Ok(self.buffers.as_ref().ok_or_else(not_loaded)?.2.to_host(queue)?)
    }
}
