//! The testbed: the GPUs under test and the implementations available on
//! them. This is where the suite's own code (the Rust PTX, the CUDA C twins,
//! later other runtimes) meets the pure driver layer of [`crate::gpu`].
//!
//! Experiments ask the testbed what it has ([`Testbed::devices`],
//! [`DeviceUnderTest::ptx_implementations`], [`DeviceUnderTest::cublas`]) and
//! are *waived*, with the reason, when it lacks what they need.

mod cuda_c_twins;
mod device_selection;
mod device_under_test;
mod implementation;
mod opencl_side;

pub use cuda_c_twins::{CUDA_C_SOURCE, compile_twins};
pub use device_selection::DeviceSelection;
pub use device_under_test::DeviceUnderTest;
pub use implementation::{Implementation, ImplementationSet};
pub use opencl_side::OpenClSide;

use crate::error::{Error, Result};
use crate::gpu::Gpu;

/// The devices under test and what the run may measure on them.
pub struct Testbed {
    devices: Vec<DeviceUnderTest>,
    selected: ImplementationSet,
}

impl Testbed {
    /// Opens the selected devices with the selected implementations loaded.
    /// The selection is checked against the machine before anything is opened.
    pub fn open(devices: &DeviceSelection, selected: &ImplementationSet) -> Result<Self> {
        let ordinals = devices.resolve(Gpu::device_count()?)?;
        let devices = ordinals
            .into_iter()
            .map(|ordinal| DeviceUnderTest::open(ordinal, selected))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            devices,
            selected: selected.clone(),
        })
    }

    /// A testbed of devices opened elsewhere (tests, selftest).
    pub fn of(devices: Vec<DeviceUnderTest>, selected: ImplementationSet) -> Result<Self> {
        if devices.is_empty() {
            return Err(Error::NoDevice);
        }
        Ok(Self { devices, selected })
    }

    pub fn devices(&self) -> &[DeviceUnderTest] {
        &self.devices
    }

    /// The implementations the run selected (`--impl`).
    pub fn selected(&self) -> &ImplementationSet {
        &self.selected
    }

    /// `Ok` when the testbed has at least `count` GPUs, else the waiver's reason.
    pub fn needs_gpus(&self, count: usize) -> std::result::Result<(), String> {
        if self.devices.len() >= count {
            Ok(())
        } else {
            Err(format!(
                "needs {count} GPUs; this run has {} (--device)",
                self.devices.len()
            ))
        }
    }
}
