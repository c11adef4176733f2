use super::{HostMemory, PipelineStep, StagedRunner, UploadOrder, chunk_ranges, opencl_fma_chain_of};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, ClContext, ClQueue, MappedHostBuffer, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{HostClock, SampleTimer, probe_ms, timed_launches};

/// The arrays and the pipeline's queues, made by [`StagedRunner::prepare`]
/// (dropped in this order: the device array, the mapping, the queues).
struct OpenClArrays {
    data: ClBuffer<f32>,
    /// The input in `CL_MEM_ALLOC_HOST_PTR` memory, mapped (the documents' pinned memory).
    pinned: MappedHostBuffer<f32>,
    /// The input in ordinary host memory.
    ordinary: Vec<f32>,
    queues: Vec<ClQueue>,
}

/// The OpenCL C `fma_chain` in the staged pipeline on the OpenCL device that
/// is the GPU under test: one in-order queue per chunk, uploads from a
/// mapped `CL_MEM_ALLOC_HOST_PTR` buffer or from ordinary memory, timed by
/// the host clock around the enqueues and a `clFinish` of every queue used
/// (profiling events do not span queues).
pub struct OpenClStagedRunner<'a> {
    context: &'a ClContext,
    twins: &'a OpenClTwins,
    max_streams: u32,
    /// Work-groups per launch at most (the Rust kernel's full wave).
    wave_groups: u32,
    arrays: Option<OpenClArrays>,
}

impl<'a> OpenClStagedRunner<'a> {
    /// The twins built in `context` (their program's) in a pipeline of up to `max_streams` in-order
    /// queues of it (made by `prepare`), each launch at most `wave_groups` work-groups of 256.
    pub fn new(context: &'a ClContext, twins: &'a OpenClTwins, max_streams: u32, wave_groups: u32) -> Self {
        Self {
            context,
            twins,
            max_streams,
            wave_groups,
            arrays: None,
        }
    }

    fn arrays(&mut self) -> Result<(&'a OpenClTwins, u32, &mut OpenClArrays)> {
        let arrays = self.arrays.as_mut().ok_or_else(not_prepared)?;
        Ok((self.twins, self.wave_groups, arrays))
    }
}

fn not_prepared() -> Error {
    Error::InvalidInput("the OpenCL pipeline's arrays are not prepared".into())
}

/// Enqueues `step` (on the first queue, or staged on one queue per chunk), then
/// waits for it with a `clFinish` of every queue it used.
fn run(twins: &OpenClTwins, wave_groups: u32, arrays: &mut OpenClArrays, step: PipelineStep) -> Result<()> {
    let used = enqueue(twins, wave_groups, arrays, step)?;
    for queue in &arrays.queues[..used] {
        queue.finish()?;
    }
    Ok(())
}

/// Enqueues `step`; returns how many queues (from the first) it used.
fn enqueue(twins: &OpenClTwins, wave_groups: u32, arrays: &mut OpenClArrays, step: PipelineStep) -> Result<usize> {
    let OpenClArrays {
        data,
        pinned,
        ordinary,
        queues,
    } = arrays;
    let len = data.len();
    // SAFETY (uploads below): the host arrays are not written while commands are in flight; every run
    // ends with clFinish on each queue it used, and `wait` finishes them all.
    match step {
        PipelineStep::Upload(HostMemory::PageLocked) => unsafe { pinned.upload_async(&queues[0], 0..len, data)? },
        PipelineStep::Upload(HostMemory::Ordinary) => unsafe { data.write_async(&queues[0], 0, ordinary)? },
        PipelineStep::Kernel(iterations) => {
            opencl_fma_chain_of(twins, &queues[0], data, 0..len, (iterations, wave_groups))?
        }
        PipelineStep::Sequential(iterations) => {
            unsafe { pinned.upload_async(&queues[0], 0..len, data)? };
            opencl_fma_chain_of(twins, &queues[0], data, 0..len, (iterations, wave_groups))?;
        }
        PipelineStep::Staged {
            streams,
            order: UploadOrder::AsListed,
            memory,
            iterations,
        } => {
            let n = (streams as usize).clamp(1, queues.len());
            for (i, chunk) in chunk_ranges(len, n as u32, 256).into_iter().enumerate() {
                let queue = &queues[i];
                match memory {
                    HostMemory::PageLocked => unsafe { pinned.upload_async(queue, chunk.clone(), data)? },
                    HostMemory::Ordinary => unsafe { data.write_async(queue, chunk.start, &ordinary[chunk.clone()])? },
                }
                opencl_fma_chain_of(twins, queue, data, chunk, (iterations, wave_groups))?;
            }
            return Ok(n);
        }
        PipelineStep::Staged { .. } => {
            return Err(Error::InvalidInput(format!(
                "the OpenCL pipeline's uploads are free to start (Listing 3.3b as written), not {step:?}"
            )));
        }
    }
    Ok(1)
}

impl StagedRunner for OpenClStagedRunner<'_> {
    fn implementation(&self) -> Implementation {
        Implementation::OpenClC
    }
    fn device_name(&self) -> String {
        self.context.device().info().name.trim().to_string()
    }
    fn prepare(&mut self, source: &[f32]) -> Result<()> {
        self.arrays = None; // free the last arrays first
        let context = self.context;
        let queues: Vec<ClQueue> = (0..self.max_streams.max(1))
            .map(|_| ClQueue::new(context))
            .collect::<std::result::Result<_, _>>()?;
        let mut pinned = MappedHostBuffer::<f32>::new(context, &queues[0], source.len())?;
        pinned.as_mut_slice().copy_from_slice(source);
        let data = ClBuffer::<f32>::new(context, source.len())?;
        self.arrays = Some(OpenClArrays {
            data,
            pinned,
            ordinary: source.to_vec(),
            queues,
        });
        Ok(())
    }
    fn enqueue(&mut self, step: PipelineStep) -> Result<()> {
        let (twins, wave_groups, arrays) = self.arrays()?;
        enqueue(twins, wave_groups, arrays, step).map(|_| ())
    }
    fn wait(&mut self) -> Result<()> {
        let (_, _, arrays) = self.arrays()?;
        arrays.queues.iter().try_for_each(|queue| Ok(queue.finish()?))
    }
    fn probe_ms(&mut self, step: PipelineStep) -> Result<f64> {
        let (twins, wave_groups, arrays) = self.arrays()?;
        probe_ms(&mut HostClock, &mut || run(twins, wave_groups, arrays, step))
    }
    fn time(&mut self, step: PipelineStep, settings: &RunSettings) -> Result<Vec<f64>> {
        let (twins, wave_groups, arrays) = self.arrays()?;
        timed_launches(&mut HostClock, settings, &mut || run(twins, wave_groups, arrays, step))
    }
    fn time_runs_ms(&mut self, step: PipelineStep, runs: u32) -> Result<f64> {
        let (twins, wave_groups, arrays) = self.arrays()?;
        HostClock.time_ms(&mut || {
            for _ in 0..runs {
                run(twins, wave_groups, arrays, step)?;
            }
            Ok(())
        })
    }
    fn fill_data(&mut self, value: f32) -> Result<()> {
        let (_, _, arrays) = self.arrays()?;
        arrays.data.fill(&arrays.queues[0], value)?;
        Ok(arrays.queues[0].finish()?)
    }
    fn read_data(&mut self) -> Result<Vec<f32>> {
        let (_, _, arrays) = self.arrays()?;
        Ok(arrays.data.to_host(&arrays.queues[0])?)
    }
}
