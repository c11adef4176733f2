use kernels_gpu::instruction_throughput::{
    ChainElement, THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel,
};

use super::{AnyChainParams, ChainValue, throughput, throughput_in_module};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, Module};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The chain values a throughput kernel stored, in its element type.
#[derive(Clone, Debug, PartialEq)]
pub enum ChainValues {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    /// The integer kernels and the packed `f16x2` one.
    U32(Vec<u32>),
}

impl ChainValues {
    pub fn len(&self) -> usize {
        match self {
            Self::F32(v) => v.len(),
            Self::F64(v) => v.len(),
            Self::I32(v) => v.len(),
            Self::U32(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Chain `c` of thread `t < first` from a launch of `launched` threads
/// (stored at `c · launched + t`), rearranged to `c · first + t`: the layout
/// the CPU references give for a run of `first` threads.
pub fn first_threads<T: Copy>(all: &[T], launched: u32, first: u32) -> Vec<T> {
    let mut out = Vec::with_capacity(THROUGHPUT_CHAINS * first as usize);
    for chain in 0..THROUGHPUT_CHAINS {
        let start = chain * launched as usize;
        out.extend_from_slice(&all[start..start + first as usize]);
    }
    out
}

/// Output buffers for every throughput kernel, one per element type, each
/// holding the chains of up to `threads` threads: a sweep over all the
/// kernels allocates once, outside its timed launches.
pub struct ThroughputOutputs {
    f32: DeviceBuffer<f32>,
    f64: DeviceBuffer<f64>,
    i32: DeviceBuffer<i32>,
    u32: DeviceBuffer<u32>,
    threads: u32,
}

impl ThroughputOutputs {
    /// Buffers for launches of up to `threads` threads.
    pub fn new(gpu: &Gpu, threads: u32) -> Result<Self> {
        let len = THROUGHPUT_CHAINS * threads as usize;
        Ok(Self {
            f32: DeviceBuffer::uninit(gpu, len)?,
            f64: DeviceBuffer::uninit(gpu, len)?,
            i32: DeviceBuffer::uninit(gpu, len)?,
            u32: DeviceBuffer::uninit(gpu, len)?,
            threads,
        })
    }

    /// The most threads a launch may have.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Launches `kernel` with `params` (whose element type must be the
    /// kernel's) on `blocks` blocks of [`THROUGHPUT_BLOCK_THREADS`] for
    /// `iterations` rounds; the shape check refuses more threads than the buffers hold.
    #[allow(clippy::too_many_arguments)]
    pub fn launch(
        &mut self,
        dut: &DeviceUnderTest,
        implementation: Implementation,
        kernel: ThroughputKernel,
        params: AnyChainParams,
        iterations: u32,
        blocks: u32,
    ) -> Result<()> {
        match params {
            AnyChainParams::F32(p) => throughput(dut, implementation, kernel, &mut self.f32, p, iterations, blocks),
            AnyChainParams::F64(p) => throughput(dut, implementation, kernel, &mut self.f64, p, iterations, blocks),
            AnyChainParams::I32(p) => throughput(dut, implementation, kernel, &mut self.i32, p, iterations, blocks),
            AnyChainParams::U32(p) => throughput(dut, implementation, kernel, &mut self.u32, p, iterations, blocks),
        }
    }

    /// [`launch`](Self::launch) for the kernel of the same name in `module` (see [`throughput_in_module`]).
    pub fn launch_in_module(
        &mut self,
        gpu: &Gpu,
        module: &Module,
        kernel: ThroughputKernel,
        params: AnyChainParams,
        (iterations, blocks): (u32, u32),
    ) -> Result<()> {
        match params {
            AnyChainParams::F32(p) => throughput_in_module(gpu, module, kernel, &mut self.f32, p, iterations, blocks),
            AnyChainParams::F64(p) => throughput_in_module(gpu, module, kernel, &mut self.f64, p, iterations, blocks),
            AnyChainParams::I32(p) => throughput_in_module(gpu, module, kernel, &mut self.i32, p, iterations, blocks),
            AnyChainParams::U32(p) => throughput_in_module(gpu, module, kernel, &mut self.u32, p, iterations, blocks),
        }
    }

    /// The chains of the first `first` threads of the last launch of
    /// `kernel` on `blocks` blocks, at `c · first + t` (the CPU references'
    /// layout for `first` threads). Waits for the launch.
    pub fn read_first_threads(&self, kernel: ThroughputKernel, blocks: u32, first: u32) -> Result<ChainValues> {
        let launched = blocks.saturating_mul(THROUGHPUT_BLOCK_THREADS);
        if launched > self.threads || first > launched {
            return Err(Error::InvalidLaunch {
                kernel: kernel.entry(),
                reason: format!(
                    "cannot read {first} threads of a launch of {launched} threads into buffers for {}",
                    self.threads
                ),
            });
        }
        fn read<T: ChainValue>(buffer: &DeviceBuffer<T>, launched: u32, first: u32) -> Result<Vec<T>> {
            Ok(first_threads(&buffer.to_host()?, launched, first))
        }
        Ok(match kernel.element() {
            ChainElement::F32 => ChainValues::F32(read(&self.f32, launched, first)?),
            ChainElement::F64 => ChainValues::F64(read(&self.f64, launched, first)?),
            ChainElement::I32 => ChainValues::I32(read(&self.i32, launched, first)?),
            ChainElement::U32 | ChainElement::F16x2 => ChainValues::U32(read(&self.u32, launched, first)?),
        })
    }

    /// Every `f32` chain value of the last launch of an `f32` kernel on
    /// `blocks` blocks (at `c · threads + t`), for comparing two kernels' results.
    pub fn read_all_f32(&self, blocks: u32) -> Result<Vec<f32>> {
        let len = THROUGHPUT_CHAINS * blocks.saturating_mul(THROUGHPUT_BLOCK_THREADS) as usize;
        let all = self.f32.to_host()?;
        all.get(..len).map(<[f32]>::to_vec).ok_or_else(|| Error::InvalidLaunch {
            kernel: "f32 throughput kernels",
            reason: format!("{blocks} blocks store {len} values; the buffer holds {}", all.len()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::first_threads;

    #[test]
    fn the_first_threads_are_regrouped_chain_by_chain() {
        // 3 threads launched, 8 chains: value = 10 · chain + thread.
        let all: Vec<u32> = (0..8).flat_map(|c| (0..3).map(move |t| 10 * c + t)).collect();
        let two = first_threads(&all, 3, 2);
        assert_eq!(two.len(), 16);
        for c in 0..8 {
            assert_eq!(two[c * 2], 10 * c as u32);
            assert_eq!(two[c * 2 + 1], 10 * c as u32 + 1);
        }
    }
}
