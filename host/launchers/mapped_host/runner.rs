use super::CudaMappedRunner;
use crate::error::{Error, Result};
use crate::launchers::twin_waivers::{KernelSet, kernel_set_plan};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// Where an array of the family lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Page-locked host memory mapped into the device's address space:
    /// kernels read and write it over the host link (zero copy).
    Mapped,
    /// Page-locked host memory, not mapped: only the copy engines reach it.
    Pinned,
    /// The device's own memory.
    Device,
}

impl Memory {
    /// Whether kernels can address it.
    pub fn device_visible(self) -> bool {
        matches!(self, Memory::Mapped | Memory::Device)
    }

    /// Whether it is host memory.
    pub fn on_host(self) -> bool {
        matches!(self, Memory::Mapped | Memory::Pinned)
    }
}

/// An array of `f32` a runner made ([`MappedRunner::array`]): a handle, valid
/// until the runner's arrays are freed ([`MappedRunner::free_arrays`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayId {
    index: usize,
    /// How many times the runner had freed its arrays when it made this one.
    generation: u32,
    memory: Memory,
    len: usize,
}

impl ArrayId {
    pub(super) fn new(index: usize, generation: u32, memory: Memory, len: usize) -> Self {
        Self {
            index,
            generation,
            memory,
            len,
        }
    }
    pub(super) fn index(self) -> usize {
        self.index
    }
    pub(super) fn generation(self) -> u32 {
        self.generation
    }
    pub fn memory(self) -> Memory {
        self.memory
    }
    pub fn len(self) -> usize {
        self.len
    }
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// One piece of work on a runner's arrays, enqueued in order on its stream (queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappedStep {
    /// A copy engine copies the first `n` floats between host memory (pinned
    /// or mapped) and device memory, either way.
    Copy { from: ArrayId, to: ArrayId, n: usize },
    /// `vector_copy` of the first `n` floats (its default grid: about one
    /// float4 per thread, at most a few full waves), between any two
    /// device-visible arrays.
    VectorCopy {
        implementation: Implementation,
        from: ArrayId,
        to: ArrayId,
        n: u64,
    },
    /// `stride_copy`: `to[t·stride] = from[t·stride]` for `t < threads`
    /// (whole 256-thread blocks), between any two device-visible arrays.
    StrideCopy {
        implementation: Implementation,
        from: ArrayId,
        to: ArrayId,
        threads: u64,
        stride: i32,
    },
    /// `ptx_device_vecadd` (the Rust kernel on the `ptx-device` layer):
    /// `c = a + b` over the first `n` floats of three device arrays.
    Add { a: ArrayId, b: ArrayId, c: ArrayId, n: u64 },
    /// The OpenCL guide's tiled SGEMM (`tiled_sgemm`): `C = A · B` for
    /// `n × n` matrices in three device arrays.
    Multiply {
        implementation: Implementation,
        a: ArrayId,
        b: ArrayId,
        c: ArrayId,
        n: u32,
    },
}

/// Why `step` cannot run on arrays where they are: a copy engine moves
/// between the host and the device, kernels reach only device-visible
/// memory (the vector additions and products device memory only), and no
/// kernel's output is one of its inputs. The launchers check the bounds.
pub fn step_error(step: &MappedStep) -> Option<String> {
    let aliased = |out: ArrayId, inputs: &[ArrayId]| inputs.iter().any(|a| a.index == out.index);
    match *step {
        MappedStep::Copy { from, to, .. } => {
            let (f, t) = (from.memory, to.memory);
            let crosses = (f.on_host() && t == Memory::Device) || (f == Memory::Device && t.on_host());
            (!crosses).then(|| format!("a copy engine step copies between host and device memory, not {f:?} to {t:?}"))
        }
        MappedStep::VectorCopy { from, to, .. } | MappedStep::StrideCopy { from, to, .. } => {
            if !(from.memory.device_visible() && to.memory.device_visible()) {
                Some(format!(
                    "a kernel reaches device or mapped memory only, not {:?} to {:?}",
                    from.memory, to.memory
                ))
            } else {
                aliased(to, &[from]).then(|| "a copy's output is its input".to_string())
            }
        }
        MappedStep::Add { a, b, c, .. } | MappedStep::Multiply { a, b, c, .. } => {
            if [a, b, c].iter().any(|x| x.memory != Memory::Device) {
                Some("the addition and the product run on device arrays only".to_string())
            } else {
                aliased(c, &[a, b]).then(|| "the result array is one of the operands".to_string())
            }
        }
    }
}

/// [`step_error`] as an error.
pub(super) fn check_step(step: &MappedStep) -> Result<()> {
    match step_error(step) {
        Some(why) => Err(Error::InvalidInput(format!("{why} ({step:?})"))),
        None => Ok(()),
    }
}

/// One programming model's side of the mapped-memory family: arrays in
/// mapped, pinned and device memory, owned by the runner, the steps that
/// move and compute on them, and its clock.
pub trait MappedRunner {
    /// The implementations whose kernels its steps may launch (Rust first).
    fn implementations(&self) -> &[Implementation];
    /// Makes an array of `len` floats in `memory` (host memory zero-filled,
    /// device memory uninitialised): before any timing.
    fn array(&mut self, memory: Memory, len: usize) -> Result<ArrayId>;
    /// Copies `data`, as long as `array`, into it (host memory written by
    /// the CPU, with nothing in flight; device memory uploaded and waited for).
    fn write(&mut self, array: ArrayId, data: &[f32]) -> Result<()>;
    /// Sets at least the first `n` floats of `array` to `value`: host memory
    /// exactly those (written by the CPU, with nothing in flight), device
    /// memory all of it (one memset, in stream order).
    fn fill(&mut self, array: ArrayId, n: usize, value: f32) -> Result<()>;
    /// Per-run milliseconds of each sample of `steps`, enqueued in order
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced,
    /// warmed up); returns once the work is done.
    fn time(&mut self, steps: &[MappedStep], settings: &RunSettings) -> Result<Vec<f64>>;
    /// The first `n` floats of `array`, once the work enqueued is done.
    fn read(&mut self, array: ArrayId, n: usize) -> Result<Vec<f32>>;
    /// Frees every array (before the next size's): their handles are void.
    fn free_arrays(&mut self);
}

/// Every runner of the family on `dut`: the one place a programming model
/// is added. Returns the runners and, for each selected implementation of
/// `kernels` left out, why.
#[allow(clippy::type_complexity)]
pub fn mapped_runners(
    dut: &DeviceUnderTest,
    kernels: KernelSet,
) -> Result<(Vec<Box<dyn MappedRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, waived) = kernel_set_plan(kernels, dut.ptx_implementations());
    let runners: Vec<Box<dyn MappedRunner + '_>> = vec![Box::new(CudaMappedRunner::new(dut, implementations)?)];
    Ok((runners, waived))
}

#[cfg(test)]
mod tests {
    use super::{ArrayId, MappedStep, Memory, step_error};
    use crate::testbed::Implementation::Rust;

    #[test]
    fn steps_reach_only_the_memory_their_engine_can() {
        let [mapped, pinned, device, other] = [
            ArrayId::new(0, 0, Memory::Mapped, 64),
            ArrayId::new(1, 0, Memory::Pinned, 64),
            ArrayId::new(2, 0, Memory::Device, 64),
            ArrayId::new(3, 0, Memory::Device, 64),
        ];
        let copy = |from, to| step_error(&MappedStep::Copy { from, to, n: 64 });
        assert_eq!(copy(pinned, device), None);
        assert_eq!(copy(mapped, device), None);
        assert_eq!(copy(device, pinned), None);
        assert!(copy(device, other).is_some(), "device to device is no host copy");
        assert!(copy(pinned, mapped).is_some(), "host to host is no host copy");
        let kernel = |from, to| {
            step_error(&MappedStep::VectorCopy {
                implementation: Rust,
                from,
                to,
                n: 64,
            })
        };
        assert_eq!(kernel(mapped, device), None);
        assert_eq!(kernel(device, mapped), None);
        assert_eq!(kernel(mapped, mapped.with_index(4)), None);
        assert!(
            kernel(pinned, device).is_some(),
            "unmapped host memory is out of a kernel's reach"
        );
        assert!(kernel(device, device).is_some(), "output aliases input");
        let add = |a, b, c| step_error(&MappedStep::Add { a, b, c, n: 64 });
        assert_eq!(add(device, device, other), None, "one operand twice is fine");
        assert!(add(device, other, other).is_some(), "the result is an operand");
        assert!(
            add(mapped, device, other).is_some(),
            "the addition runs on device arrays only"
        );
    }

    impl ArrayId {
        fn with_index(self, index: usize) -> Self {
            Self { index, ..self }
        }
    }
}
