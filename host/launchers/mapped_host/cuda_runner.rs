use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};

use super::{ArrayId, MappedRunner, MappedStep, Memory, check_step};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, HostMemoryKind, PinnedBuffer};
use crate::launchers::{KernelLayer, SgemmKernel, sgemm, stride_copy_global, vecadd, vector_copy_global};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, timed_launches};

/// An array on the CUDA side: page-locked host memory or device memory.
enum CudaArray {
    /// Host memory; if mapped, its device address as kernels take it, read once
    /// (`cuMemHostGetDevicePointer`) rather than at every launch.
    Host(PinnedBuffer<f32>, Option<(GlobalPtr<f32>, GlobalMutPtr<f32>)>),
    Device(DeviceBuffer<f32>),
}

/// The family on the device's CUDA context: `cuMemHostAlloc` host memory
/// (mapped with `DEVICEMAP`, or only pinned), device buffers, the PTX
/// implementations' kernels and the copy engines, all on the device's
/// stream, timed by CUDA events.
pub struct CudaMappedRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    arrays: Vec<CudaArray>,
    /// How many times the arrays were freed (handles of older ones are void).
    generation: u32,
    timer: CudaTimer<'a>,
}

impl<'a> CudaMappedRunner<'a> {
    /// A runner of `implementations`' kernels, with no arrays yet.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            arrays: Vec::new(),
            generation: 0,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

/// `array`'s index in `arrays`, once the handle is known to be one of this runner's live arrays.
fn index_of(arrays: &[CudaArray], generation: u32, array: ArrayId) -> Result<usize> {
    let live = array.generation() == generation && array.index() < arrays.len();
    if !live {
        return Err(Error::InvalidInput(format!(
            "{array:?} is not an array of this runner (freed, or another runner's)"
        )));
    }
    Ok(array.index())
}

/// The one array of `arrays` at `out`, writable, and those at `inputs`, readable (`None` if
/// `out` is one of them or an index is missing).
fn out_and_inputs<'v, T>(arrays: &'v mut [T], out: usize, inputs: &[usize]) -> Option<(&'v mut T, Vec<&'v T>)> {
    if inputs.contains(&out) {
        return None;
    }
    let mut written = None;
    let mut read: Vec<(usize, &'v T)> = Vec::new();
    for (i, array) in arrays.iter_mut().enumerate() {
        if i == out {
            written = Some(array);
        } else if inputs.contains(&i) {
            read.push((i, array));
        }
    }
    let read: Option<Vec<&T>> = inputs
        .iter()
        .map(|i| read.iter().find(|(j, _)| j == i).map(|&(_, a)| a))
        .collect();
    Some((written?, read?))
}

fn device(array: &CudaArray) -> Result<&DeviceBuffer<f32>> {
    match array {
        CudaArray::Device(buffer) => Ok(buffer),
        CudaArray::Host(..) => Err(Error::InvalidInput(
            "host memory where device memory was expected".into(),
        )),
    }
}

fn device_mut(array: &mut CudaArray) -> Result<&mut DeviceBuffer<f32>> {
    match array {
        CudaArray::Device(buffer) => Ok(buffer),
        CudaArray::Host(..) => Err(Error::InvalidInput(
            "host memory where device memory was expected".into(),
        )),
    }
}

/// The array as a kernel's input: device memory, or mapped host memory at its device address.
fn global(array: &CudaArray) -> Result<(GlobalPtr<f32>, usize)> {
    match array {
        CudaArray::Device(buffer) => Ok((buffer.as_global(), buffer.len())),
        CudaArray::Host(buffer, Some((input, _))) => Ok((*input, buffer.len())),
        CudaArray::Host(_, None) => Err(not_mapped()),
    }
}

/// The array as a kernel's output.
fn global_mut(array: &mut CudaArray) -> Result<(GlobalMutPtr<f32>, usize)> {
    match array {
        CudaArray::Device(buffer) => Ok((buffer.as_global_mut(), buffer.len())),
        CudaArray::Host(buffer, Some((_, output))) => Ok((*output, buffer.len())),
        CudaArray::Host(_, None) => Err(not_mapped()),
    }
}

fn not_mapped() -> Error {
    Error::InvalidInput("pinned host memory that is not mapped is out of a kernel's reach".into())
}

/// The copy engine's copy of the first `n` floats between `arrays[from]` and `arrays[to]`.
fn copy(dut: &DeviceUnderTest, arrays: &mut [CudaArray], (from, to): (usize, usize), n: usize) -> Result<()> {
    let stream = dut.gpu().stream();
    let aliased = || Error::InvalidInput("a copy's source is its destination".into());
    let (destination, sources) = out_and_inputs(arrays, to, &[from]).ok_or_else(aliased)?;
    match (sources[0], destination) {
        // SAFETY: steps are enqueued only inside `time`, which waits for them before it returns; the CPU
        // touches or frees host arrays only outside it (`write`, `fill`, `read`, `free_arrays`, drop).
        (CudaArray::Host(host, _), CudaArray::Device(device)) => unsafe { host.upload_async(0..n, device, stream) },
        // SAFETY: as above.
        (CudaArray::Device(device), CudaArray::Host(host, _)) => unsafe { host.download_async(0..n, device, stream) },
        _ => Err(Error::InvalidInput(
            "a copy engine step copies between host and device".into(),
        )),
    }
}

/// Enqueues `step` on the device's stream.
fn enqueue(
    dut: &DeviceUnderTest,
    arrays: &mut [CudaArray],
    generation: u32,
    implementations: &[Implementation],
    step: &MappedStep,
) -> Result<()> {
    check_step(step)?;
    let at = |array: ArrayId| index_of(arrays, generation, array);
    let launches = |implementation: Implementation| {
        if implementations.contains(&implementation) {
            Ok(implementation)
        } else {
            Err(Error::InvalidInput(format!(
                "this runner launches no {} kernels",
                implementation.label()
            )))
        }
    };
    match *step {
        MappedStep::Copy { from, to, n } => {
            let ends = (at(from)?, at(to)?);
            copy(dut, arrays, ends, n)
        }
        MappedStep::VectorCopy {
            implementation,
            from,
            to,
            n,
        } => {
            let (implementation, from, to) = (launches(implementation)?, at(from)?, at(to)?);
            let out = global_mut(&mut arrays[to])?;
            vector_copy_global(dut, implementation, out, global(&arrays[from])?, n)
        }
        MappedStep::StrideCopy {
            implementation,
            from,
            to,
            threads,
            stride,
        } => {
            let (implementation, from, to) = (launches(implementation)?, at(from)?, at(to)?);
            let out = global_mut(&mut arrays[to])?;
            stride_copy_global(dut, implementation, out, global(&arrays[from])?, threads, stride)
        }
        MappedStep::Add { a, b, c, n } => {
            let (a, b, c) = (at(a)?, at(b)?, at(c)?);
            let aliased = || Error::InvalidInput("the sum is one of its operands".into());
            let (c, ab) = out_and_inputs(arrays, c, &[a, b]).ok_or_else(aliased)?;
            vecadd(
                dut,
                KernelLayer::PtxDevice,
                device_mut(c)?,
                device(ab[0])?,
                device(ab[1])?,
                n,
            )
        }
        MappedStep::Multiply {
            implementation,
            a,
            b,
            c,
            n,
        } => {
            let (implementation, a, b, c) = (launches(implementation)?, at(a)?, at(b)?, at(c)?);
            let aliased = || Error::InvalidInput("the product is one of its operands".into());
            let (c, ab) = out_and_inputs(arrays, c, &[a, b]).ok_or_else(aliased)?;
            let (a, b) = (device(ab[0])?, device(ab[1])?);
            sgemm(dut, implementation, SgemmKernel::Tiled, a, b, device_mut(c)?, (n, n, n))
        }
    }
}

impl MappedRunner for CudaMappedRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }
    fn array(&mut self, memory: Memory, len: usize) -> Result<ArrayId> {
        let gpu = self.dut.gpu();
        let array = match memory {
            Memory::Mapped => {
                let mut buffer = PinnedBuffer::new(gpu, len, HostMemoryKind::Mapped)?;
                let pointers = (buffer.as_global()?, buffer.as_global_mut()?);
                CudaArray::Host(buffer, Some(pointers))
            }
            Memory::Pinned => CudaArray::Host(PinnedBuffer::new(gpu, len, HostMemoryKind::Pinned)?, None),
            Memory::Device => CudaArray::Device(DeviceBuffer::uninit(gpu, len)?),
        };
        self.arrays.push(array);
        Ok(ArrayId::new(self.arrays.len() - 1, self.generation, memory, len))
    }
    fn write(&mut self, array: ArrayId, data: &[f32]) -> Result<()> {
        let index = index_of(&self.arrays, self.generation, array)?;
        if data.len() != array.len() {
            return Err(Error::InvalidInput(format!(
                "{} floats written into {array:?}",
                data.len()
            )));
        }
        match &mut self.arrays[index] {
            CudaArray::Host(host, _) => {
                host.as_mut_slice().copy_from_slice(data);
                Ok(())
            }
            CudaArray::Device(device) => device.copy_from_host(data),
        }
    }
    fn fill(&mut self, array: ArrayId, n: usize, value: f32) -> Result<()> {
        let index = index_of(&self.arrays, self.generation, array)?;
        match &mut self.arrays[index] {
            CudaArray::Host(host, _) => {
                let start = host
                    .as_mut_slice()
                    .get_mut(..n)
                    .ok_or_else(|| Error::InvalidInput(format!("{n} floats do not fit {array:?}")))?;
                start.fill(value);
                Ok(())
            }
            CudaArray::Device(device) => device.fill(value),
        }
    }
    fn time(&mut self, steps: &[MappedStep], settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            implementations,
            arrays,
            generation,
            timer,
        } = self;
        let times = timed_launches(timer, settings, &mut || {
            steps
                .iter()
                .try_for_each(|step| enqueue(dut, arrays, *generation, implementations, step))
        })?;
        dut.gpu().synchronize()?;
        Ok(times)
    }
    fn read(&mut self, array: ArrayId, n: usize) -> Result<Vec<f32>> {
        let index = index_of(&self.arrays, self.generation, array)?;
        self.dut.gpu().synchronize()?;
        let short = || Error::InvalidInput(format!("{array:?} holds fewer than {n} floats"));
        match &self.arrays[index] {
            CudaArray::Host(host, _) => Ok(host.as_slice().get(..n).ok_or_else(short)?.to_vec()),
            CudaArray::Device(device) => {
                let mut all = device.to_host()?;
                if all.len() < n {
                    return Err(short());
                }
                all.truncate(n);
                Ok(all)
            }
        }
    }
    fn free_arrays(&mut self) {
        self.arrays.clear();
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::out_and_inputs;

    #[test]
    fn one_array_is_written_while_others_are_read() {
        let mut arrays = [10, 11, 12, 13];
        let (out, inputs) = out_and_inputs(&mut arrays, 2, &[0, 3, 0]).unwrap();
        *out += 100;
        assert_eq!(
            inputs,
            [&10, &13, &10],
            "in the order asked, an input twice if asked twice"
        );
        assert_eq!(arrays, [10, 11, 112, 13]);
        assert!(
            out_and_inputs(&mut arrays, 1, &[0, 1]).is_none(),
            "the output is an input"
        );
        assert!(out_and_inputs(&mut arrays, 4, &[0]).is_none(), "no such output");
        assert!(out_and_inputs(&mut arrays, 0, &[7]).is_none(), "no such input");
    }
}
