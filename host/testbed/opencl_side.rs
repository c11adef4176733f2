use crate::gpu::{DeviceInfo, uuid_bytes};
use crate::opencl::{ClContext, ClQueue, DeviceMatch, OpenClDeviceInfo, OpenClRuntime, OpenClTwins};

/// The OpenCL side of one GPU under test: the OpenCL device that *is* the
/// CUDA device (matched by UUID, else by PCI address; never "the first
/// GPU"), a context, an in-order profiling queue and the OpenCL C twins,
/// built once for the run.
pub struct OpenClSide {
    // Field order is drop order: kernels and program, then the queue, then the context.
    twins: OpenClTwins,
    queue: ClQueue,
    context: ClContext,
    matched_by: DeviceMatch,
}

impl OpenClSide {
    /// The OpenCL side of the CUDA device `info`, or why there is none (no
    /// loader, no platform, no matching device, a build error with its log).
    pub fn open(info: &DeviceInfo) -> Result<Self, String> {
        let runtime = OpenClRuntime::load()?;
        let uuid = info.uuid.as_deref().and_then(uuid_bytes).unwrap_or([0; 16]);
        let (device, matched_by) = runtime.device_matching_how(uuid, &format!("{}.0", info.pci_bus_id))?;
        let context = ClContext::new(&device).map_err(|e| format!("OpenCL context on {}: {e}", device.name()))?;
        let queue = ClQueue::new(&context).map_err(|e| format!("OpenCL queue on {}: {e}", device.name()))?;
        let twins = OpenClTwins::build(&context).map_err(|e| format!("building the OpenCL C twins: {e}"))?;
        Ok(Self {
            twins,
            queue,
            context,
            matched_by,
        })
    }

    pub fn twins(&self) -> &OpenClTwins {
        &self.twins
    }

    pub fn queue(&self) -> &ClQueue {
        &self.queue
    }

    pub fn context(&self) -> &ClContext {
        &self.context
    }

    pub fn device_info(&self) -> &OpenClDeviceInfo {
        self.context.device().info()
    }

    /// What the report says of this implementation: platform, version, device, how matched, reduction.
    pub fn detail(&self) -> String {
        format!(
            "{}; matched to the CUDA device by {}; warp-level matvec reductions: {}",
            self.device_info().summary(),
            match self.matched_by {
                DeviceMatch::Uuid => "UUID",
                DeviceMatch::PciAddress => "PCI address",
            },
            self.twins.reduction().label()
        )
    }
}
