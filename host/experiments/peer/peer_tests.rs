//! The copies the `peer` experiment measures between GPUs, named as
//! nvbandwidth names its tests, with the series key each one reports under.

use crate::report::{Devices, SeriesKey};
use crate::testbed::Implementation;

/// One kind of copy between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerTest {
    /// The source's copy engine writes the destination (`cuMemcpyPeerAsync` on the source's stream).
    CopyEngine,
    /// A `vector_copy` kernel on the destination reads the source's memory over the link.
    Pull,
    /// A `vector_copy` kernel on the source writes the destination's memory over the link.
    Push,
    /// Copy engines of both GPUs at once, each writing the other.
    CopyEngineBothWays,
    /// Kernels on both GPUs at once, each reading the other.
    PullBothWays,
    /// Every other GPU's copy engine writes into one GPU at once.
    CopyEngineAllToOne,
    /// One GPU's copy engine writes every other GPU at once (a stream per destination).
    CopyEngineOneToAll,
    /// Kernels on every other GPU write into one GPU at once.
    PushAllToOne,
    /// Kernels on one GPU write every other GPU at once (a stream per destination).
    PushOneToAll,
}

impl PeerTest {
    /// The copies made for every ordered pair of GPUs, over the size sweep.
    pub const ONE_WAY: [Self; 3] = [Self::CopyEngine, Self::Pull, Self::Push];
    /// The copies made for every pair of GPUs at once, at the largest size.
    pub const BOTH_WAYS: [Self; 2] = [Self::CopyEngineBothWays, Self::PullBothWays];
    /// The copies between one GPU and all the others at once, at the largest size.
    pub const HUB: [Self; 4] = [
        Self::CopyEngineAllToOne,
        Self::CopyEngineOneToAll,
        Self::PushAllToOne,
        Self::PushOneToAll,
    ];

    /// nvbandwidth's name for the test (its JSON's keys).
    pub fn nvbandwidth_name(self) -> &'static str {
        match self {
            Self::CopyEngine => "device_to_device_memcpy_write_ce",
            Self::Pull => "device_to_device_memcpy_read_sm",
            Self::Push => "device_to_device_memcpy_write_sm",
            Self::CopyEngineBothWays => "device_to_device_bidirectional_memcpy_write_ce",
            Self::PullBothWays => "device_to_device_bidirectional_memcpy_read_sm",
            Self::CopyEngineAllToOne => "all_to_one_write_ce",
            Self::CopyEngineOneToAll => "one_to_all_write_ce",
            Self::PushAllToOne => "all_to_one_write_sm",
            Self::PushOneToAll => "one_to_all_write_sm",
        }
    }

    /// Whether a kernel makes the copy (and so peer access is needed).
    pub fn is_kernel(self) -> bool {
        !matches!(
            self,
            Self::CopyEngine | Self::CopyEngineBothWays | Self::CopyEngineAllToOne | Self::CopyEngineOneToAll
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::CopyEngine => "CE copy, one way",
            Self::Pull => "SM copy, pull (reads the peer)",
            Self::Push => "SM copy, push (writes the peer)",
            Self::CopyEngineBothWays => "CE copies, both directions at once",
            Self::PullBothWays => "SM pulls, both directions at once",
            Self::CopyEngineAllToOne => "CE, all GPUs into one",
            Self::CopyEngineOneToAll => "CE, one GPU into all",
            Self::PushAllToOne => "SM push, all GPUs into one",
            Self::PushOneToAll => "SM push, one GPU into all",
        }
    }

    fn call_and_variant(self) -> (&'static str, &'static str) {
        match self {
            Self::CopyEngine => ("cuMemcpyPeerAsync", "one way"),
            Self::Pull => ("vector_copy", "pull"),
            Self::Push => ("vector_copy", "push"),
            Self::CopyEngineBothWays => ("cuMemcpyPeerAsync", "both directions"),
            Self::PullBothWays => ("vector_copy", "pull, both directions"),
            Self::CopyEngineAllToOne => ("cuMemcpyPeerAsync", "all to one"),
            Self::CopyEngineOneToAll => ("cuMemcpyPeerAsync", "one to all"),
            Self::PushAllToOne => ("vector_copy", "push, all to one"),
            Self::PushOneToAll => ("vector_copy", "push, one to all"),
        }
    }

    /// The series key of this test by `implementation` on `devices`: a pair for the
    /// size sweeps, all GPUs for the matrices, one GPU (the hub) for all-to-one and one-to-all.
    pub fn key(self, implementation: Implementation, devices: Devices) -> SeriesKey {
        let (call, variant) = self.call_and_variant();
        let implementation = if self.is_kernel() {
            implementation
        } else {
            Implementation::CopyEngine
        };
        SeriesKey::new(call, implementation, "f32").variant(variant).on(devices)
    }

    /// The test a series key belongs to.
    pub fn of_key(key: &SeriesKey) -> Option<Self> {
        [Self::ONE_WAY.as_slice(), &Self::BOTH_WAYS, &Self::HUB]
            .concat()
            .into_iter()
            .find(|t| t.call_and_variant() == (key.kernel.as_str(), key.variant.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::PeerTest;
    use crate::report::Devices;
    use crate::testbed::Implementation;

    #[test]
    fn every_test_has_its_own_key_and_is_found_again_from_it() {
        let all = [PeerTest::ONE_WAY.as_slice(), &PeerTest::BOTH_WAYS, &PeerTest::HUB].concat();
        for test in &all {
            let key = test.key(Implementation::CudaC, Devices::All);
            assert_eq!(PeerTest::of_key(&key), Some(*test));
            let expected = if test.is_kernel() {
                Implementation::CudaC
            } else {
                Implementation::CopyEngine
            };
            assert_eq!(key.implementation, expected);
        }
        let mut names: Vec<&str> = all.iter().map(|t| t.nvbandwidth_name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
