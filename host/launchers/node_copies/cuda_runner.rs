use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::{ConcurrentSamples, NodeArray, NodeCopy, NodeCopyRunner, PeerPath, Residence, copy_error, together_error};
use crate::concurrent_timing::{Lane, LaneWork, concurrent_gbps};
use crate::error::{DriverResultExt, Error, Result};
use crate::gpu::{DeviceBuffer, HostMemoryKind, PeerAccess, PeerAttributes, PinnedBuffer};
use crate::launchers::{vector_copy_blocks, vector_copy_global_grid, vector_copy_global_on};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, timed_launches};

/// An array on the CUDA side.
enum CudaArray {
    Device(DeviceBuffer<f32>),
    /// Mapped page-locked memory and its device address as kernels take it,
    /// read once (`cuMemHostGetDevicePointer`) rather than at every launch.
    Host(PinnedBuffer<f32>, GlobalPtr<f32>),
}

impl CudaArray {
    /// Element `start` on, as a kernel's input, and the elements left.
    fn input(&self, start: usize) -> (GlobalPtr<f32>, usize) {
        let (base, len) = match self {
            CudaArray::Device(buffer) => (buffer.device_ptr() as usize, buffer.len()),
            CudaArray::Host(buffer, pointer) => (pointer.as_raw() as usize, buffer.len()),
        };
        (GlobalPtr::from_raw((base + start * 4) as *const f32), len - start)
    }

    /// Element `start` on, as a kernel's output, and the elements left.
    fn output(&self, start: usize) -> (GlobalMutPtr<f32>, usize) {
        let (input, left) = self.input(start);
        (GlobalMutPtr::from_raw(input.as_raw() as *mut f32), left)
    }
}

/// The family on the CUDA contexts of the node's GPUs: `cuMemAlloc` device
/// memory, `cuMemHostAlloc` host memory (portable, mapped), peer access
/// (`cuCtxEnablePeerAccess`), the copy engines (`cuMemcpyPeerAsync`,
/// `cuMemcpyHtoDAsync`, `cuMemcpyDtoHAsync`) and the PTX implementations'
/// `vector_copy`; one copy timed by CUDA events on its issuer's stream, copies
/// at once by [`concurrent_gbps`] on new streams.
pub struct CudaNodeCopyRunner<'a> {
    devices: &'a [DeviceUnderTest],
    implementations: Vec<Implementation>,
    /// Freed before the peer access below ends.
    arrays: Vec<CudaArray>,
    access: Vec<(usize, usize, PeerAccess)>,
}

impl<'a> CudaNodeCopyRunner<'a> {
    /// A runner of `implementations`' kernels on `devices`, with no arrays yet
    /// and no peer access enabled (nothing is allocated).
    pub fn new(devices: &'a [DeviceUnderTest], implementations: Vec<Implementation>) -> Self {
        Self {
            devices,
            implementations,
            arrays: Vec::new(),
            access: Vec::new(),
        }
    }

    fn device(&self, gpu: usize) -> Result<&'a DeviceUnderTest> {
        self.devices
            .get(gpu)
            .ok_or_else(|| Error::InvalidInput(format!("no GPU {gpu} among the runner's {}", self.devices.len())))
    }

    fn has_access(&self, from: usize, to: usize) -> bool {
        self.access.iter().any(|&(f, t, _)| (f, t) == (from, to))
    }

    /// `array`'s index, once the handle is known to be one of this runner's.
    fn index_of(&self, array: NodeArray) -> Result<usize> {
        let index = array.index();
        let same = self.arrays.get(index).is_some_and(|a| {
            let (on_host, len) = match a {
                CudaArray::Device(b) => (false, b.len()),
                CudaArray::Host(b, _) => (true, b.len()),
            };
            on_host == matches!(array.residence(), Residence::MappedHost(_)) && len == array.len()
        });
        if !same {
            return Err(Error::InvalidInput(format!("{array:?} is not an array of this runner")));
        }
        Ok(index)
    }

    /// Checks `copies` as [`together_error`] does and that their kernels are this runner's.
    fn check(&self, copies: &[NodeCopy]) -> Result<()> {
        let access = |from: usize, to: usize| self.has_access(from, to);
        let why = if let [copy] = copies {
            copy_error(copy, self.devices.len(), &access)
        } else {
            together_error(copies, self.devices.len(), &access)
        };
        if let Some(why) = why {
            return Err(Error::InvalidInput(format!("{why} ({copies:?})")));
        }
        for copy in copies {
            let (from, to, ..) = copy.ends();
            self.index_of(from)?;
            self.index_of(to)?;
            if let NodeCopy::Kernel { implementation, .. } = *copy
                && !self.implementations.contains(&implementation)
            {
                return Err(Error::InvalidInput(format!(
                    "this runner launches no {} kernels",
                    implementation.label()
                )));
            }
        }
        Ok(())
    }

    /// Waits for the suite's stream of every GPU in `gpus`.
    fn synchronize(&self, gpus: impl IntoIterator<Item = usize>) -> Result<()> {
        for gpu in gpus {
            self.device(gpu)?.gpu().synchronize()?;
        }
        Ok(())
    }
}

/// An array lent to the copies of one timing: to one copy alone where a copy
/// engine writes it across the host link, else to any.
enum Lent<'a> {
    Alone(Option<&'a mut CudaArray>),
    Shared(&'a CudaArray),
}

fn shared<'a>(lent: &[Lent<'a>], index: usize) -> Result<&'a CudaArray> {
    match lent[index] {
        Lent::Shared(array) => Ok(array),
        Lent::Alone(_) => Err(Error::InvalidInput(
            "an array written across the host link is used by another copy".into(),
        )),
    }
}

/// The enqueuers of `copies` (checked), in order: each enqueues one copy on the stream it is given.
fn works<'a>(
    devices: &'a [DeviceUnderTest],
    arrays: &'a mut [CudaArray],
    copies: &[NodeCopy],
) -> Result<Vec<LaneWork<'a>>> {
    let alone: Vec<usize> = copies
        .iter()
        .filter(|c| c.crosses_the_host_link())
        .map(|c| c.ends().1.index())
        .collect();
    let mut lent: Vec<Lent<'a>> = arrays
        .iter_mut()
        .enumerate()
        .map(|(i, a)| {
            if alone.contains(&i) {
                Lent::Alone(Some(a))
            } else {
                Lent::Shared(a)
            }
        })
        .collect();
    let mut works = Vec::with_capacity(copies.len());
    for copy in copies {
        let (from, to, start, count) = copy.ends();
        let range = start..start + count;
        let issuer = &devices[copy.issuer()];
        let source = shared(&lent, from.index())?;
        let work: LaneWork<'a> = match *copy {
            NodeCopy::Kernel {
                implementation, blocks, ..
            } => {
                let (out, inp) = (shared(&lent, to.index())?.output(start), source.input(start));
                let n = count as u64;
                match blocks {
                    None => Box::new(move |s| vector_copy_global_on(issuer, implementation, s, out, inp, n)),
                    Some(blocks) => Box::new(move |s| {
                        let grid = (blocks, COPY_BLOCK_THREADS);
                        vector_copy_global_grid(issuer, implementation, s, out, inp, n, grid)
                    }),
                }
            }
            NodeCopy::Engine { .. } if copy.crosses_the_host_link() => {
                let Lent::Alone(destination) = &mut lent[to.index()] else {
                    unreachable!("copies across the host link hold their destinations alone")
                };
                let destination = destination
                    .take()
                    .ok_or_else(|| Error::InvalidInput("two copies across the host link write one array".into()))?;
                match (source, destination) {
                    // SAFETY: the arrays outlive the copies; `time` and `time_together` wait for every
                    // copy before they return, and nothing else touches the arrays meanwhile.
                    (CudaArray::Host(host, _), CudaArray::Device(device)) => {
                        Box::new(move |s| unsafe { host.upload_async(range.clone(), device, s) })
                    }
                    // SAFETY: as above.
                    (CudaArray::Device(device), CudaArray::Host(host, _)) => {
                        Box::new(move |s| unsafe { host.download_async(range.clone(), device, s) })
                    }
                    _ => unreachable!("a copy across the host link has one end in host memory"),
                }
            }
            NodeCopy::Engine { .. } => match (source, shared(&lent, to.index())?) {
                // SAFETY: as above; copies at once write disjoint ranges (`together_error`).
                (CudaArray::Device(source), CudaArray::Device(destination)) => {
                    Box::new(move |s| unsafe { destination.copy_range_from_peer_async(start, source, count, s) })
                }
                _ => unreachable!("a copy engine step that does not cross the host link is between GPUs"),
            },
        };
        works.push(work);
    }
    Ok(works)
}

impl NodeCopyRunner for CudaNodeCopyRunner<'_> {
    fn gpus(&self) -> usize {
        self.devices.len()
    }
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }
    fn path(&self, from: usize, to: usize) -> Result<PeerPath> {
        let attributes = PeerAttributes::query(self.device(from)?.gpu(), self.device(to)?.gpu())?;
        Ok(PeerPath {
            access_supported: attributes.access_supported,
            native_atomics: attributes.native_atomics,
            performance_rank: attributes.performance_rank,
        })
    }
    fn enable_peer_access(&mut self, from: usize, to: usize) -> Result<()> {
        if from == to || self.has_access(from, to) {
            return Ok(());
        }
        let guard = PeerAccess::enable(self.device(from)?.gpu(), self.device(to)?.gpu())?;
        self.access.push((from, to, guard));
        Ok(())
    }
    fn disable_peer_access(&mut self) {
        self.access.clear();
    }
    fn ensure_free_memory(&self, gpu: usize, bytes: u64) -> Result<()> {
        self.device(gpu)?.gpu().ensure_free_memory(bytes)
    }
    fn device_array(&mut self, gpu: usize, len: usize) -> Result<NodeArray> {
        let buffer = DeviceBuffer::uninit(self.device(gpu)?.gpu(), len)?;
        self.arrays.push(CudaArray::Device(buffer));
        Ok(NodeArray::new(self.arrays.len() - 1, Residence::Device(gpu), len))
    }
    fn host_array(&mut self, gpu: usize, len: usize) -> Result<NodeArray> {
        let buffer = PinnedBuffer::new(self.device(gpu)?.gpu(), len, HostMemoryKind::Mapped)?;
        let pointer = buffer.as_global()?;
        self.arrays.push(CudaArray::Host(buffer, pointer));
        Ok(NodeArray::new(self.arrays.len() - 1, Residence::MappedHost(gpu), len))
    }
    fn write(&mut self, array: NodeArray, data: &[f32]) -> Result<()> {
        let index = self.index_of(array)?;
        match &mut self.arrays[index] {
            CudaArray::Host(host, _) if host.len() == data.len() => {
                host.as_mut_slice().copy_from_slice(data);
                Ok(())
            }
            CudaArray::Host(..) => Err(Error::InvalidInput(format!(
                "{} floats written into {array:?}",
                data.len()
            ))),
            CudaArray::Device(device) => device.copy_from_host(data),
        }
    }
    fn fill(&mut self, array: NodeArray, value: f32) -> Result<()> {
        let index = self.index_of(array)?;
        match &mut self.arrays[index] {
            CudaArray::Host(host, _) => {
                host.as_mut_slice().fill(value);
                Ok(())
            }
            CudaArray::Device(device) => {
                device.fill(value)?;
                self.synchronize([array.residence().gpu()])
            }
        }
    }
    fn read(&mut self, array: NodeArray, start: usize, out: &mut [f32]) -> Result<()> {
        let index = self.index_of(array)?;
        match &self.arrays[index] {
            CudaArray::Device(device) => device.copy_range_to_host(start, out),
            CudaArray::Host(host, _) => {
                self.synchronize([array.residence().gpu()])?;
                let range = start.checked_add(out.len()).map(|end| start..end);
                let elements = range
                    .and_then(|r| host.as_slice().get(r))
                    .ok_or_else(|| Error::InvalidInput(format!("elements {start}..+{} of {array:?}", out.len())))?;
                out.copy_from_slice(elements);
                Ok(())
            }
        }
    }
    fn default_blocks(&self, gpu: usize, implementation: Implementation, count: u64) -> Result<u32> {
        vector_copy_blocks(self.device(gpu)?, implementation, count)
    }
    fn time(&mut self, copy: &NodeCopy, settings: &RunSettings) -> Result<Vec<f64>> {
        self.check(std::slice::from_ref(copy))?;
        let issuer = self.device(copy.issuer())?;
        let times = {
            let mut works = works(self.devices, &mut self.arrays, std::slice::from_ref(copy))?;
            let work = &mut works[0];
            let mut timer = CudaTimer::new(issuer.gpu())?;
            timed_launches(&mut timer, settings, &mut || work(issuer.gpu().stream()))?
        };
        self.synchronize(copy.gpus())?;
        Ok(times)
    }
    fn time_together(
        &mut self,
        copies: &[NodeCopy],
        latch: usize,
        settings: &RunSettings,
    ) -> Result<ConcurrentSamples> {
        self.check(copies)?;
        let latch = self.device(latch)?;
        let devices = self.devices;
        let samples = {
            let works = works(devices, &mut self.arrays, copies)?;
            let mut lanes = Vec::with_capacity(copies.len());
            for (copy, work) in copies.iter().zip(works) {
                let issuing = &devices[copy.issuer()];
                let stream = issuing.gpu().context().new_stream().during("cuStreamCreate")?;
                lanes.push(Lane::new(issuing, stream, copy.ends().3 as u64 * 4, work)?);
            }
            concurrent_gbps(latch, &mut lanes, settings)?
        };
        let mut gpus: Vec<usize> = copies.iter().flat_map(NodeCopy::gpus).collect();
        gpus.sort_unstable();
        gpus.dedup();
        self.synchronize(gpus)?;
        Ok(samples)
    }
}
