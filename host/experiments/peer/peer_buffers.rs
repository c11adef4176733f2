//! The buffers of a `peer` run: on every GPU a source holding that GPU's own
//! pattern, and one destination for each other GPU, so that every copy of a
//! concurrent test has a destination of its own and each destination can be
//! checked to hold its source's pattern, and no other's. The arrays are a
//! node-copies runner's ([`NodeCopyRunner`]); this file only lays them out and
//! checks them.

use crate::copy_element::CopyElement;
use crate::error::{Error, Result};
use crate::launchers::{NodeArray, NodeCopyRunner};

/// How far apart the patterns of two GPUs' sources are (a prime, so no GPU's
/// pattern is another's shifted by a multiple of the pattern's period).
const PATTERN_SHIFT: usize = 7919;

/// Element `i` of GPU `gpu`'s source.
pub fn source_value(gpu: usize, i: usize) -> f32 {
    f32::pattern(i + PATTERN_SHIFT * gpu)
}

/// Elements read back and compared at a time.
const CHECK_CHUNK: usize = 1 << 24;

/// The runner's arrays of a `peer` run, by GPU (places in the run).
pub struct PeerBuffers {
    gpus: usize,
    len: usize,
    sources: Vec<NodeArray>,
    /// `received[dst * gpus + src]`: on GPU `dst`, what GPU `src` sends; `None` on the diagonal.
    received: Vec<Option<NodeArray>>,
}

impl PeerBuffers {
    /// `len` floats per array on each of the runner's GPUs: GPUs × `len` × 4 bytes on each GPU.
    pub fn allocate(runner: &mut dyn NodeCopyRunner, len: usize) -> Result<Self> {
        let gpus = runner.gpus();
        let bytes = (len as u64 * 4).saturating_mul(gpus as u64);
        let mut sources = Vec::with_capacity(gpus);
        for index in 0..gpus {
            runner.ensure_free_memory(index, bytes)?;
            let pattern: Vec<f32> = (0..len).map(|i| source_value(index, i)).collect();
            let source = runner.device_array(index, len)?;
            runner.write(source, &pattern)?;
            sources.push(source);
        }
        let mut received = Vec::with_capacity(gpus * gpus);
        for dst in 0..gpus {
            for src in 0..gpus {
                received.push(if src == dst {
                    None
                } else {
                    Some(runner.device_array(dst, len)?)
                });
            }
        }
        Ok(Self {
            gpus,
            len,
            sources,
            received,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn index(&self, dst: usize, src: usize) -> Result<usize> {
        if dst >= self.gpus || src >= self.gpus || dst == src {
            return Err(Error::InvalidInput(format!(
                "no destination on GPU {dst} for GPU {src} among {} GPUs",
                self.gpus
            )));
        }
        Ok(dst * self.gpus + src)
    }

    /// GPU `gpu`'s source.
    pub fn source(&self, gpu: usize) -> NodeArray {
        self.sources[gpu]
    }

    /// The array on GPU `dst` that receives GPU `src`'s copies.
    pub fn received(&self, dst: usize, src: usize) -> Result<NodeArray> {
        let index = self.index(dst, src)?;
        Ok(self.received[index].expect("off-diagonal arrays exist"))
    }

    /// Fills GPU `dst`'s array for GPU `src` with -1 and waits, so a copy that
    /// does not happen cannot pass its check on an earlier copy's data.
    pub fn clear(&self, runner: &mut dyn NodeCopyRunner, dst: usize, src: usize) -> Result<()> {
        runner.fill(self.received(dst, src)?, -1.0)
    }

    /// Whether the first `n` elements on GPU `dst` from GPU `src` are GPU `src`'s
    /// pattern: `None` if they are, else the first difference. The GPUs must be idle.
    pub fn check(&self, runner: &mut dyn NodeCopyRunner, dst: usize, src: usize, n: usize) -> Result<Option<String>> {
        let array = self.received(dst, src)?;
        let n = n.min(self.len);
        let mut chunk = vec![0f32; CHECK_CHUNK.min(n)];
        let mut start = 0;
        while start < n {
            let count = CHECK_CHUNK.min(n - start);
            runner.read(array, start, &mut chunk[..count])?;
            for (offset, got) in chunk[..count].iter().enumerate() {
                let i = start + offset;
                let want = source_value(src, i);
                if got.to_bits() != want.to_bits() {
                    return Ok(Some(format!(
                        "GPU {dst} holds {got} at element {i} of GPU {src}'s copy; expected {want}"
                    )));
                }
            }
            start += count;
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::source_value;

    #[test]
    fn each_gpu_sends_a_pattern_of_its_own() {
        for i in [0, 1, 1000, 1 << 24] {
            assert_ne!(source_value(0, i).to_bits(), source_value(1, i).to_bits());
            assert_ne!(source_value(1, i).to_bits(), source_value(2, i).to_bits());
        }
        assert_eq!(source_value(1, 0), source_value(0, 7919));
    }
}
