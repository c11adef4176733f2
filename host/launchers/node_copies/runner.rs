use super::CudaNodeCopyRunner;
use crate::error::{Error, Result};
use crate::launchers::twin_waivers::{KernelSet, kernel_set_plan};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

pub use crate::concurrent_timing::ConcurrentSamples;

/// Where an array of the family lives; GPUs by their place in the runner's
/// devices (not by CUDA ordinal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residence {
    /// GPU `g`'s own memory.
    Device(usize),
    /// Page-locked host memory mapped for GPU `g`: its copy engines reach it,
    /// and its kernels address it over the host link (zero copy).
    MappedHost(usize),
}

impl Residence {
    /// The GPU the memory belongs to (or is mapped for).
    pub fn gpu(self) -> usize {
        match self {
            Residence::Device(g) | Residence::MappedHost(g) => g,
        }
    }
}

/// An array of `f32` a runner made ([`NodeCopyRunner::device_array`],
/// [`NodeCopyRunner::host_array`]): a handle, valid for the runner's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeArray {
    index: usize,
    residence: Residence,
    len: usize,
}

impl NodeArray {
    pub(super) fn new(index: usize, residence: Residence, len: usize) -> Self {
        Self { index, residence, len }
    }
    pub(super) fn index(self) -> usize {
        self.index
    }
    pub fn residence(self) -> Residence {
        self.residence
    }
    pub fn len(self) -> usize {
        self.len
    }
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One copy of elements `start .. start + count` of `from` into the same
/// elements of `to`, enqueued on a stream (queue) of GPU `issuer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeCopy {
    /// The issuer's copy engine: between two GPUs' memory (`cuMemcpyPeerAsync`:
    /// over the link where peer access is possible, staged through the host where
    /// not), or between host memory and the issuer's own memory, either way.
    Engine {
        issuer: usize,
        from: NodeArray,
        to: NodeArray,
        start: usize,
        count: usize,
    },
    /// `vector_copy` by `implementation` on the issuer's SMs, its default grid
    /// (`blocks: None`: about one float4 per thread, at most a few full waves)
    /// or `blocks` blocks of 256 threads (the grid-stride loop covers the rest),
    /// reading and writing the issuer's memory, a peer's (peer access enabled)
    /// or host memory mapped for the issuer.
    Kernel {
        issuer: usize,
        implementation: Implementation,
        from: NodeArray,
        to: NodeArray,
        start: usize,
        count: usize,
        blocks: Option<u32>,
    },
}

impl NodeCopy {
    pub fn issuer(&self) -> usize {
        match *self {
            NodeCopy::Engine { issuer, .. } | NodeCopy::Kernel { issuer, .. } => issuer,
        }
    }

    /// (from, to, start, count).
    pub fn ends(&self) -> (NodeArray, NodeArray, usize, usize) {
        match *self {
            NodeCopy::Engine {
                from, to, start, count, ..
            }
            | NodeCopy::Kernel {
                from, to, start, count, ..
            } => (from, to, start, count),
        }
    }

    /// Whether the copy engine moves between host and device memory (it then
    /// holds its destination alone while it runs).
    pub(super) fn crosses_the_host_link(&self) -> bool {
        let (from, to, ..) = self.ends();
        matches!(self, NodeCopy::Engine { .. })
            && matches!(from.residence, Residence::MappedHost(_)) != matches!(to.residence, Residence::MappedHost(_))
    }

    /// The GPUs the copy touches: its issuer and its arrays' GPUs, ascending, once each.
    pub fn gpus(&self) -> Vec<usize> {
        let (from, to, ..) = self.ends();
        let mut gpus = vec![self.issuer(), from.residence.gpu(), to.residence.gpu()];
        gpus.sort_unstable();
        gpus.dedup();
        gpus
    }
}

/// Why `copy` cannot run where its arrays are, among `gpus` GPUs with peer
/// access enabled where `access(from, to)` says: the range must lie in both
/// arrays, a copy engine moves between two GPUs or between host memory and its
/// own GPU, a kernel reaches its own GPU's memory, a peer's it may access and
/// host memory mapped for it, and no copy's destination is its source.
pub fn copy_error(copy: &NodeCopy, gpus: usize, access: &dyn Fn(usize, usize) -> bool) -> Option<String> {
    let (from, to, start, count) = copy.ends();
    let issuer = copy.issuer();
    if issuer >= gpus || from.residence.gpu() >= gpus || to.residence.gpu() >= gpus {
        return Some(format!(
            "a copy issued by GPU {issuer} names a GPU beyond the runner's {gpus}"
        ));
    }
    let end = start
        .checked_add(count)
        .filter(|&e| count > 0 && e <= from.len && e <= to.len);
    if end.is_none() {
        return Some(format!(
            "elements {start}..{start}+{count} are not inside arrays of {} and {} elements",
            from.len, to.len
        ));
    }
    if from.index == to.index {
        return Some("a copy's destination is its source".into());
    }
    match *copy {
        NodeCopy::Engine { .. } => match (from.residence, to.residence) {
            (Residence::MappedHost(_), Residence::MappedHost(_)) => {
                Some("a copy engine step copies between GPUs or between host and GPU, not host to host".into())
            }
            (Residence::MappedHost(_), Residence::Device(g)) | (Residence::Device(g), Residence::MappedHost(_))
                if g != issuer =>
            {
                Some(format!(
                    "GPU {issuer}'s copy engine moves host memory to or from its own memory, not GPU {g}'s"
                ))
            }
            _ => None,
        },
        NodeCopy::Kernel { .. } => [from, to].into_iter().find_map(|array| match array.residence {
            Residence::Device(g) if g != issuer && !access(issuer, g) => Some(format!(
                "no peer access from GPU {issuer} to GPU {g}: its kernels cannot address that memory"
            )),
            Residence::MappedHost(g) if g != issuer => Some(format!(
                "host memory mapped for GPU {g} is not addressed by GPU {issuer}'s kernels here"
            )),
            _ => None,
        }),
    }
}

/// Why `copies` cannot run at once: each must run alone ([`copy_error`]), no
/// copy writes elements another reads or writes, and a copy engine moving
/// across the host link holds its destination alone.
pub fn together_error(copies: &[NodeCopy], gpus: usize, access: &dyn Fn(usize, usize) -> bool) -> Option<String> {
    if copies.is_empty() {
        return Some("no copies to run at once".into());
    }
    if let Some(why) = copies.iter().find_map(|c| copy_error(c, gpus, access)) {
        return Some(why);
    }
    let overlap = |a: (NodeArray, usize, usize), b: (NodeArray, usize, usize)| {
        a.0.index == b.0.index && a.1 < b.1 + b.2 && b.1 < a.1 + a.2
    };
    for (i, a) in copies.iter().enumerate() {
        let (_, to, start, count) = a.ends();
        for (j, b) in copies.iter().enumerate().filter(|&(j, _)| j != i) {
            let (other_from, other_to, other_start, other_count) = b.ends();
            let written = (to, start, count);
            if overlap(written, (other_to, other_start, other_count))
                || overlap(written, (other_from, other_start, other_count))
            {
                return Some(format!(
                    "copies {i} and {j} of the set touch the same elements of an array, one writing"
                ));
            }
            if a.crosses_the_host_link() && (other_to.index == to.index || other_from.index == to.index) {
                return Some(format!(
                    "copy {i} writes across the host link into an array copy {j} also uses"
                ));
            }
        }
    }
    None
}

/// What the driver says of the path from one GPU to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerPath {
    /// Kernels on the source may read and write the destination's memory.
    pub access_supported: bool,
    /// Atomics on the peer's memory are done by the link, not emulated.
    pub native_atomics: bool,
    /// The driver's relative ranking of the link (lower is better).
    pub performance_rank: i32,
}

/// One programming model's side of the node-copies family: arrays in the
/// memory of the node's GPUs and in host memory mapped for each, copies
/// between them by copy engines and kernels, timed one at a time on the
/// issuer's clock or several at once, each on a stream of its own.
pub trait NodeCopyRunner {
    /// The GPUs it copies between (places `0..gpus`).
    fn gpus(&self) -> usize;
    /// The implementations whose kernels its copies may launch (Rust first).
    fn implementations(&self) -> &[Implementation];
    /// What the driver says of the path from GPU `from` to GPU `to`.
    fn path(&self, from: usize, to: usize) -> Result<PeerPath>;
    /// Lets GPU `from`'s kernels and copies use GPU `to`'s memory, until
    /// [`disable_peer_access`](Self::disable_peer_access) or the runner's drop
    /// (after its arrays are freed).
    fn enable_peer_access(&mut self, from: usize, to: usize) -> Result<()>;
    /// Ends every peer access enabled.
    fn disable_peer_access(&mut self);
    /// Fails with a clear message unless `bytes` more fit GPU `gpu`'s memory.
    fn ensure_free_memory(&self, gpu: usize, bytes: u64) -> Result<()>;
    /// An array of `len` floats in GPU `gpu`'s memory, uninitialised.
    fn device_array(&mut self, gpu: usize, len: usize) -> Result<NodeArray>;
    /// An array of `len` floats of page-locked host memory mapped for GPU
    /// `gpu`, zero-filled (allocated on the calling thread's NUMA node).
    fn host_array(&mut self, gpu: usize, len: usize) -> Result<NodeArray>;
    /// Copies `data`, as long as `array`, into it, done when it returns.
    fn write(&mut self, array: NodeArray, data: &[f32]) -> Result<()>;
    /// Sets every element of `array` to `value`, done when it returns.
    fn fill(&mut self, array: NodeArray, value: f32) -> Result<()>;
    /// Elements `start .. start + out.len()` of `array`, once its GPU's work is done.
    fn read(&mut self, array: NodeArray, start: usize, out: &mut [f32]) -> Result<()>;
    /// The blocks of `vector_copy`'s default grid for `count` floats on GPU `gpu`.
    fn default_blocks(&self, gpu: usize, implementation: Implementation, count: u64) -> Result<u32>;
    /// Milliseconds per copy, one per sample ([`timed_launches`](crate::timing::timed_launches):
    /// probed, paced, warmed up) on the issuer's own stream between its events;
    /// returns once every GPU the copy touches is idle.
    fn time(&mut self, copy: &NodeCopy, settings: &RunSettings) -> Result<Vec<f64>>;
    /// GB/s of `copies` run at once, each on a new stream of its issuer, held
    /// until all are enqueued by a latch on GPU `latch` and timed on its clock
    /// ([`concurrent_gbps`](crate::concurrent_timing::concurrent_gbps)); returns
    /// once every GPU the copies touch is idle.
    fn time_together(&mut self, copies: &[NodeCopy], latch: usize, settings: &RunSettings)
    -> Result<ConcurrentSamples>;
}

/// Every runner of the family on `devices` (places in the run, the first
/// GPU's kernel modules deciding the implementations): the one place a
/// programming model is added. Returns the runners (CUDA's) and, for each
/// selected implementation of `kernels` left out, why.
#[allow(clippy::type_complexity)]
pub fn node_copy_runners(
    devices: &[DeviceUnderTest],
    kernels: KernelSet,
) -> Result<(Vec<Box<dyn NodeCopyRunner + '_>>, Vec<(Implementation, String)>)> {
    let first = devices
        .first()
        .ok_or_else(|| Error::InvalidInput("node copies need at least one GPU".into()))?;
    let (implementations, waived) = kernel_set_plan(kernels, first.ptx_implementations());
    let runners: Vec<Box<dyn NodeCopyRunner + '_>> = vec![Box::new(CudaNodeCopyRunner::new(devices, implementations))];
    Ok((runners, waived))
}

#[cfg(test)]
mod tests {
    use super::{NodeArray, NodeCopy, Residence, copy_error, together_error};
    use crate::testbed::Implementation::Rust;

    fn device(index: usize, gpu: usize) -> NodeArray {
        NodeArray::new(index, Residence::Device(gpu), 1024)
    }

    fn host(index: usize, gpu: usize) -> NodeArray {
        NodeArray::new(index, Residence::MappedHost(gpu), 1024)
    }

    fn engine(issuer: usize, from: NodeArray, to: NodeArray, start: usize, count: usize) -> NodeCopy {
        NodeCopy::Engine {
            issuer,
            from,
            to,
            start,
            count,
        }
    }

    fn kernel(issuer: usize, from: NodeArray, to: NodeArray, start: usize, count: usize) -> NodeCopy {
        NodeCopy::Kernel {
            issuer,
            implementation: Rust,
            from,
            to,
            start,
            count,
            blocks: None,
        }
    }

    #[test]
    fn copies_reach_only_the_memory_their_engine_or_kernel_can() {
        let only_0_to_1 = |from: usize, to: usize| (from, to) == (0, 1);
        let error = |copy: NodeCopy| copy_error(&copy, 2, &only_0_to_1);
        // Copy engines: between GPUs either way, host to and from the issuer's own memory.
        assert_eq!(error(engine(0, device(0, 0), device(1, 1), 0, 1024)), None);
        assert_eq!(error(engine(1, device(0, 0), device(1, 1), 0, 1024)), None);
        assert_eq!(error(engine(0, host(2, 0), device(0, 0), 0, 1024)), None);
        assert_eq!(error(engine(0, device(0, 0), host(2, 0), 0, 1024)), None);
        assert!(
            error(engine(1, host(2, 0), device(0, 0), 0, 1024)).is_some(),
            "another GPU's host copy"
        );
        assert!(
            error(engine(0, host(2, 0), host(3, 0), 0, 1024)).is_some(),
            "host to host"
        );
        // Kernels: their own memory, a peer's with access, host memory mapped for them.
        assert_eq!(
            error(kernel(0, device(1, 1), device(0, 0), 0, 1024)),
            None,
            "GPU 0 pulls"
        );
        assert!(
            error(kernel(1, device(0, 0), device(1, 1), 0, 1024)).is_some(),
            "no access 1 → 0"
        );
        assert_eq!(error(kernel(0, host(2, 0), device(0, 0), 0, 1024)), None);
        assert!(
            error(kernel(1, host(2, 0), device(1, 1), 0, 1024)).is_some(),
            "mapped for GPU 0"
        );
        // Ranges, aliasing and GPUs past the runner's.
        assert_eq!(error(engine(0, device(0, 0), device(1, 1), 512, 512)), None);
        assert!(
            error(engine(0, device(0, 0), device(1, 1), 512, 513)).is_some(),
            "past the end"
        );
        assert!(
            error(engine(0, device(0, 0), device(1, 1), 0, 0)).is_some(),
            "nothing to copy"
        );
        assert!(
            error(engine(0, device(0, 0), device(0, 0), 0, 8)).is_some(),
            "onto itself"
        );
        assert!(error(engine(2, device(0, 0), device(1, 1), 0, 8)).is_some(), "no GPU 2");
    }

    #[test]
    fn copies_at_once_write_what_no_other_touches() {
        let all = |_: usize, _: usize| true;
        let error = |copies: &[NodeCopy]| together_error(copies, 2, &all);
        let (source, destination) = (device(0, 0), device(1, 1));
        // Two halves of one destination, as peer-copy-limits splits a copy between both GPUs.
        let halves = [
            kernel(0, source, destination, 0, 512),
            kernel(1, source, destination, 512, 512),
        ];
        assert_eq!(error(&halves), None);
        let overlapping = [
            engine(0, source, destination, 0, 600),
            engine(1, source, destination, 512, 512),
        ];
        assert!(error(&overlapping).is_some());
        // One source read by many copies (peer's one GPU into all).
        let fan_out = [
            engine(0, source, destination, 0, 1024),
            engine(0, source, device(2, 1), 0, 1024),
        ];
        assert_eq!(error(&fan_out), None);
        // A copy may not read what another writes.
        let chained = [
            engine(0, source, destination, 0, 1024),
            kernel(1, destination, device(2, 1), 0, 1024),
        ];
        assert!(error(&chained).is_some());
        // Across the host link: both directions at once on one GPU, but a destination alone.
        let both_ways = [
            engine(0, host(2, 0), device(3, 0), 0, 1024),
            engine(0, device(0, 0), host(4, 0), 0, 1024),
        ];
        assert_eq!(error(&both_ways), None);
        let shared_destination = [
            engine(0, host(2, 0), device(3, 0), 0, 512),
            engine(0, host(4, 0), device(3, 0), 512, 512),
        ];
        assert!(error(&shared_destination).is_some());
        assert!(error(&[]).is_some(), "an empty set");
        assert!(
            error(&[engine(1, host(2, 0), device(0, 0), 0, 8)]).is_some(),
            "each copy checked"
        );
    }
}
