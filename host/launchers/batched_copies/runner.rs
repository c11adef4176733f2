use super::CudaPieceCopyRunner;
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// A runner's piecewise copies, as its series is keyed and labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCopies {
    /// The API call, as the series key names it.
    pub call: &'static str,
    pub implementation: Implementation,
    /// The host memory and the pieces, as the series key names them.
    pub variant: &'static str,
    pub label: &'static str,
}

impl PieceCopies {
    /// (call, implementation, variant) of the series key.
    pub const fn key(&self) -> (&'static str, Implementation, &'static str) {
        (self.call, self.implementation, self.variant)
    }
}

/// One programming model's side of the batched-copies family: a host buffer
/// holding the source it was given and a device buffer of the same length,
/// the whole host buffer copied to the device in pieces on one queue, timed
/// by its own clock.
pub trait PieceCopyRunner {
    /// Its copies' series.
    fn copies(&self) -> PieceCopies;
    /// Fills the device buffer with -1 (other data, so the check proves the copies happened).
    fn clear_device(&mut self) -> Result<()>;
    /// Milliseconds per copy of the whole buffer in pieces of `piece`
    /// elements (the last may be shorter), one per sample
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced,
    /// warmed up), the copies finished when it returns.
    fn time(&mut self, piece: usize, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The device buffer, as the last copies left it.
    fn read_device(&self) -> Result<Vec<f32>>;
}

/// Every runner of the family on `dut`, each given `source` to copy: the one
/// place a programming model is added. Returns the runners (CUDA's) and, for
/// each series left out, what and why (none: the family has no OpenCL twin yet).
#[allow(clippy::type_complexity)]
pub fn piece_copy_runners<'a>(
    dut: &'a DeviceUnderTest,
    source: &[f32],
) -> Result<(Vec<Box<dyn PieceCopyRunner + 'a>>, Vec<(String, String)>)> {
    let runners: Vec<Box<dyn PieceCopyRunner + 'a>> = vec![Box::new(CudaPieceCopyRunner::new(dut.gpu(), source)?)];
    Ok((runners, Vec::new()))
}
