use super::fan_out::check_fan;
use super::{FAN_BLOCK, FAN_ITERATIONS, FAN_MARK, FanOut, FanOutRunner, FanStream, Lanes, fma_chain_of};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, KindedStream, StreamKind};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, timed_launches};

/// One PTX implementation's `fma_chain` (Rust, or its CUDA C twin) fanned out
/// over CUDA streams forked from and joined back to the device's stream,
/// where the CUDA events that time it are; optionally a one-word memset on
/// a stream of its own between each two kernels.
pub struct CudaFanOutRunner<'a> {
    fan: CudaFan<'a>,
    timer: CudaTimer<'a>,
}

/// What a CUDA fan-out enqueues on.
struct CudaFan<'a> {
    dut: &'a DeviceUnderTest,
    implementation: Implementation,
    lanes: Vec<KindedStream>,
    /// The stream of the memset between each two kernels, if any.
    between: Option<KindedStream>,
    data: DeviceBuffer<f32>,
    /// The word the memsets write.
    mark: DeviceBuffer<u32>,
}

fn stream_kind(stream: FanStream) -> StreamKind {
    match stream {
        FanStream::NonBlocking => StreamKind::NonBlocking,
        FanStream::Blocking => StreamKind::Blocking,
        FanStream::LegacyDefault => StreamKind::LegacyDefault,
        FanStream::PerThreadDefault => StreamKind::PerThreadDefault,
    }
}

/// `count` new streams of `kind`.
fn new_lanes(dut: &DeviceUnderTest, kind: FanStream, count: usize) -> Result<Vec<KindedStream>> {
    (0..count)
        .map(|_| KindedStream::new(dut.gpu(), stream_kind(kind)))
        .collect()
}

impl<'a> CudaFanOutRunner<'a> {
    /// `implementation`'s kernels over up to `kernels` lanes of `lanes`' kind, with a block of buffer each.
    pub fn new(
        dut: &'a DeviceUnderTest,
        implementation: Implementation,
        kernels: usize,
        lanes: FanStream,
    ) -> Result<Self> {
        let gpu = dut.gpu();
        let lanes = new_lanes(dut, lanes, kernels)?;
        let fan = CudaFan {
            dut,
            implementation,
            lanes,
            between: None,
            data: DeviceBuffer::<f32>::uninit(gpu, kernels * FAN_BLOCK)?,
            mark: DeviceBuffer::<u32>::uninit(gpu, 1)?,
        };
        Ok(Self {
            fan,
            timer: CudaTimer::new(gpu)?,
        })
    }

    /// New lanes (as many as before) of `lanes`' kind, and a memset of [`FAN_MARK`]s on a stream of
    /// `between`'s kind after every kernel but the last (none with `None`).
    pub fn set_streams(&mut self, lanes: FanStream, between: Option<FanStream>) -> Result<()> {
        let fan = &mut self.fan;
        fan.lanes = new_lanes(fan.dut, lanes, fan.lanes.len())?;
        fan.between = between
            .map(|kind| KindedStream::new(fan.dut.gpu(), stream_kind(kind)))
            .transpose()?;
        Ok(())
    }

    /// The word the memsets write (0 after [`FanOutRunner::clear`] where none ran).
    pub fn read_mark(&self) -> Result<u32> {
        Ok(self.fan.mark.to_host()?[0])
    }
}

/// Enqueues `fan`: the lanes first wait for the device's stream, which waits for them at the end.
fn fan_out(on: &mut CudaFan<'_>, fan: FanOut) -> Result<()> {
    let CudaFan {
        dut,
        implementation,
        lanes,
        between,
        data,
        mark,
    } = on;
    let main = dut.gpu().stream();
    let lanes = &lanes[..fan.lanes];
    for lane in lanes {
        lane.wait_for(main)?;
    }
    for k in 0..fan.kernels {
        let lane = &lanes[k % lanes.len()];
        let block = k * FAN_BLOCK..(k + 1) * FAN_BLOCK;
        fma_chain_of(dut, *implementation, lane.stream(), data, block, FAN_ITERATIONS)?;
        if let (true, Some(between)) = (k + 1 < fan.kernels, between.as_ref()) {
            between.fill_bytes(mark, FAN_MARK)?;
        }
    }
    for lane in lanes {
        lane.join_into(main)?;
    }
    Ok(())
}

impl FanOutRunner for CudaFanOutRunner<'_> {
    fn implementation(&self) -> Implementation {
        self.fan.implementation
    }
    fn lanes(&self) -> Lanes {
        Lanes::Streams
    }
    fn clear(&mut self) -> Result<()> {
        self.fan.data.fill(0.0)?;
        self.fan.mark.fill(0)
    }
    fn time(&mut self, fan: FanOut, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self { fan: on, timer } = self;
        check_fan(fan, on.lanes.len(), on.data.len() / FAN_BLOCK)?;
        timed_launches(timer, settings, &mut || fan_out(on, fan))
    }
    fn read(&mut self) -> Result<Vec<f32>> {
        self.fan.dut.gpu().synchronize()?;
        self.fan.data.to_host()
    }
}
