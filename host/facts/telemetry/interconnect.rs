//! The theoretical bandwidth between the GPUs of a run and to the host, from
//! the links NVML reports: what the peer and host-link experiments compare
//! their measurements with.

use super::{LinkEnd, NvLinkFacts, NvmlDeviceFacts};
use crate::facts::CudaOrdinal;

/// The NVLink route between two GPUs, per direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NvLinkRoute {
    /// Links of the source GPU that lead straight to the destination GPU.
    pub direct_links: usize,
    /// Links of the source GPU into NVSwitches that the destination GPU is also on.
    pub switched_links: usize,
    /// Links × per-link speed, GB/s per direction (through switches, the smaller of the two
    /// GPUs' switch bandwidths).
    pub gbps: f64,
}

/// The GPUs of a run as NVML describes them, by CUDA ordinal.
#[derive(Clone, Debug, Default)]
pub struct Interconnect<'a> {
    devices: Vec<(CudaOrdinal, &'a NvmlDeviceFacts)>,
}

/// The sum of the links' speeds; `None` if any lacks one.
fn total_gbps<'l>(links: impl Iterator<Item = &'l NvLinkFacts>) -> Option<f64> {
    links.map(|l| l.speed_gbps).sum()
}

impl<'a> Interconnect<'a> {
    /// From `(CUDA ordinal, facts)` of each GPU NVML matched.
    pub fn new(devices: impl IntoIterator<Item = (CudaOrdinal, &'a NvmlDeviceFacts)>) -> Self {
        Self {
            devices: devices.into_iter().collect(),
        }
    }

    pub fn facts(&self, ordinal: CudaOrdinal) -> Option<&'a NvmlDeviceFacts> {
        self.devices.iter().find(|(o, _)| *o == ordinal).map(|(_, f)| *f)
    }

    /// The NVLink route from GPU `src` to GPU `dst` (CUDA ordinals): `None` when they are not
    /// joined by NVLink (or NVML does not say, or a link's speed is unknown).
    pub fn nvlink_route(&self, src: CudaOrdinal, dst: CudaOrdinal) -> Option<NvLinkRoute> {
        if src == dst {
            return None;
        }
        let (from, to) = (self.facts(src)?, self.facts(dst)?);
        let to_pci = to.pci?;
        let direct = || {
            from.active_nvlinks()
                .filter(|l| l.remote == LinkEnd::Gpu { pci: to_pci })
        };
        let switched = |facts: &'a NvmlDeviceFacts| facts.active_nvlinks().filter(|l| l.remote == LinkEnd::Switch);
        let direct_links = direct().count();
        let switched_links = if switched(to).next().is_some() {
            switched(from).count()
        } else {
            0
        };
        if direct_links + switched_links == 0 {
            return None;
        }
        let mut gbps = total_gbps(direct())?;
        if switched_links > 0 {
            gbps += total_gbps(switched(from))?.min(total_gbps(switched(to))?);
        }
        Some(NvLinkRoute {
            direct_links,
            switched_links,
            gbps,
        })
    }

    /// All of GPU `ordinal`'s active NVLinks × their speed, GB/s per direction: the most it can
    /// send (or take) over NVLink at once, to every peer together. `None` without an active link
    /// (or where a link's speed is unknown).
    pub fn nvlink_gbps(&self, ordinal: CudaOrdinal) -> Option<f64> {
        let facts = self.facts(ordinal)?;
        facts.active_nvlinks().next()?;
        total_gbps(facts.active_nvlinks())
    }

    /// Theoretical NVLink bandwidth from GPU `src` to GPU `dst` per direction (GB/s): the links
    /// between them × their speed. `None` without an NVLink route.
    pub fn nvlink_theoretical_gbps(&self, src: CudaOrdinal, dst: CudaOrdinal) -> Option<f64> {
        self.nvlink_route(src, dst).map(|r| r.gbps)
    }

    /// Theoretical PCIe bandwidth of GPU `ordinal`'s host link per direction (GB/s), at its
    /// maximum generation and width.
    pub fn pcie_theoretical_gbps(&self, ordinal: CudaOrdinal) -> Option<f64> {
        self.facts(ordinal)?.pcie.theoretical_gbps()
    }
}

#[cfg(test)]
mod tests {
    use super::{CudaOrdinal, Interconnect};
    use crate::facts::{
        LinkEnd, LinkSpeedSource, MatchedBy, NvLinkFacts, NvLinkVersion, NvmlDeviceFacts, PciLocation, PcieLinkFacts,
    };

    fn pci(bus: u32) -> PciLocation {
        PciLocation {
            domain: 0,
            bus,
            device: 0,
        }
    }

    fn link(link: u32, remote: LinkEnd, speed: Option<f64>) -> NvLinkFacts {
        NvLinkFacts {
            link,
            active: true,
            version: Some(NvLinkVersion::V3_0),
            speed_gbps: speed,
            speed_source: speed.map(|_| LinkSpeedSource::Nvml),
            remote,
        }
    }

    fn gpu(bus: u32, nvlinks: Vec<NvLinkFacts>) -> NvmlDeviceFacts {
        NvmlDeviceFacts {
            name: "GPU".into(),
            uuid: format!("GPU-{bus}"),
            pci: Some(pci(bus)),
            matched_by: MatchedBy::Uuid,
            pcie: PcieLinkFacts {
                max_generation: Some(4),
                max_width: Some(16),
                ..PcieLinkFacts::default()
            },
            nvlinks,
            max_sm_clock_mhz: None,
            max_memory_clock_mhz: None,
            power_limit_w: None,
        }
    }

    #[test]
    fn a_partial_mesh_counts_the_links_between_each_pair() {
        // Like a DGX-1: GPU 0 has two links to GPU 1, one to GPU 2, none to GPU 3; one link is down.
        let mut down = link(3, LinkEnd::Gpu { pci: pci(0x40) }, Some(25.0));
        down.active = false;
        let g0 = gpu(
            0x10,
            vec![
                link(0, LinkEnd::Gpu { pci: pci(0x20) }, Some(25.0)),
                link(1, LinkEnd::Gpu { pci: pci(0x20) }, Some(25.0)),
                link(2, LinkEnd::Gpu { pci: pci(0x30) }, Some(25.0)),
                down,
            ],
        );
        let g1 = gpu(0x20, vec![]);
        let g2 = gpu(0x30, vec![]);
        let g3 = gpu(0x40, vec![]);
        // CUDA ordinals need not follow NVML's order.
        let node = Interconnect::new([
            (CudaOrdinal(3), &g0),
            (CudaOrdinal(0), &g1),
            (CudaOrdinal(1), &g2),
            (CudaOrdinal(2), &g3),
        ]);
        let route = node.nvlink_route(CudaOrdinal(3), CudaOrdinal(0)).unwrap();
        assert_eq!((route.direct_links, route.switched_links), (2, 0));
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(3), CudaOrdinal(0)), Some(50.0));
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(3), CudaOrdinal(1)), Some(25.0));
        assert_eq!(
            node.nvlink_theoretical_gbps(CudaOrdinal(3), CudaOrdinal(2)),
            None,
            "the only link to it is down"
        );
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(3), CudaOrdinal(3)), None);
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(3), CudaOrdinal(9)), None);
        assert!((node.pcie_theoretical_gbps(CudaOrdinal(0)).unwrap() - 31.508).abs() < 1e-3);
        assert_eq!(node.pcie_theoretical_gbps(CudaOrdinal(9)), None);
    }

    #[test]
    fn through_nvswitches_the_smaller_side_decides() {
        let switch_links = |n: u32| (0..n).map(|i| link(i, LinkEnd::Switch, Some(26.5625))).collect();
        let a = gpu(0x18, switch_links(18));
        let b = gpu(0x2a, switch_links(12));
        let pcie_only = gpu(0x3b, vec![]);
        let node = Interconnect::new([(CudaOrdinal(0), &a), (CudaOrdinal(1), &b), (CudaOrdinal(2), &pcie_only)]);
        let route = node.nvlink_route(CudaOrdinal(0), CudaOrdinal(1)).unwrap();
        assert_eq!((route.direct_links, route.switched_links), (0, 18));
        assert!((route.gbps - 12.0 * 26.5625).abs() < 1e-9);
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(0), CudaOrdinal(2)), None);
        assert_eq!(node.nvlink_theoretical_gbps(CudaOrdinal(2), CudaOrdinal(0)), None);
        // What each GPU can put on the fabric at once, to all its peers together.
        assert!((node.nvlink_gbps(CudaOrdinal(0)).unwrap() - 18.0 * 26.5625).abs() < 1e-9);
        assert!((node.nvlink_gbps(CudaOrdinal(1)).unwrap() - 12.0 * 26.5625).abs() < 1e-9);
        assert_eq!(node.nvlink_gbps(CudaOrdinal(2)), None, "no NVLink at all");
        assert_eq!(node.nvlink_gbps(CudaOrdinal(7)), None, "no such GPU");
    }

    #[test]
    fn an_unknown_link_speed_gives_no_figure() {
        let a = gpu(0x18, vec![link(0, LinkEnd::Gpu { pci: pci(0x2a) }, None)]);
        let b = gpu(0x2a, vec![]);
        let node = Interconnect::new([(CudaOrdinal(0), &a), (CudaOrdinal(1), &b)]);
        assert_eq!(node.nvlink_route(CudaOrdinal(0), CudaOrdinal(1)), None);
    }
}
