//! What the links of a node can carry, from NVML, and the check every `peer`
//! figure passes against it: a set of copies that run at once can move no
//! more than the sum of their routes, nor more than the senders' links (or
//! the receivers') can carry together. A figure past that is a bug in the
//! measurement, never a finding (as `report::ceilings` holds one GPU's
//! figures to its DRAM and clocks), and fails its point with the reason.

use std::collections::BTreeSet;

use crate::report::ceilings::CEILING_TOLERANCE;
use crate::report::{Point, Status};

/// The links of the run's GPUs, by place in the run, GB/s per direction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkFigures {
    /// `[src][dst]`: the NVLink route's links × their speed; `None` without a route.
    pub routes: Vec<Vec<Option<f64>>>,
    /// Each GPU's active NVLinks together (what it can send to all its peers at once).
    pub gpu_nvlink: Vec<Option<f64>>,
    /// Each GPU's PCIe link at its maximum generation and width.
    pub pcie: Vec<Option<f64>>,
}

/// The theoretical figure of a set of copies, and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Theoretical {
    pub gbps: f64,
    pub how: String,
}

fn sum(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    values.sum()
}

impl LinkFigures {
    /// The most `copies` (source, destination) can move together: over NVLink where every copy has a
    /// route (the smallest of the routes' sum, the senders' NVLinks and the receivers'), over PCIe
    /// where none has (each copy crosses both GPUs' PCIe links); `None` for a mix, or where NVML
    /// does not say.
    pub fn of_copies(&self, copies: &[(usize, usize)]) -> Option<Theoretical> {
        if copies.is_empty() {
            return None;
        }
        let route = |&(s, d): &(usize, usize)| self.routes.get(s)?.get(d).copied().flatten();
        let senders: BTreeSet<usize> = copies.iter().map(|c| c.0).collect();
        let receivers: BTreeSet<usize> = copies.iter().map(|c| c.1).collect();
        let at = |v: &[Option<f64>], g: usize| v.get(g).copied().flatten();
        let (routes, per_gpu, over) = if copies.iter().all(|c| route(c).is_some()) {
            (sum(copies.iter().map(route)), &self.gpu_nvlink, "NVLink")
        } else if copies.iter().all(|c| route(c).is_none()) {
            let crossing = |&(s, d): &(usize, usize)| Some(at(&self.pcie, s)?.min(at(&self.pcie, d)?));
            (sum(copies.iter().map(crossing)), &self.pcie, "PCIe")
        } else {
            return None;
        };
        let routes = routes?;
        let mut gbps = routes;
        let mut how = if copies.len() == 1 {
            format!("{over}: the route's {routes:.0} GB/s")
        } else {
            format!("{over}: {} routes, {routes:.0} GB/s together", copies.len())
        };
        for (gpus, side) in [(&senders, "senders'"), (&receivers, "receivers'")] {
            if copies.len() == 1 {
                break;
            }
            if let Some(links) = sum(gpus.iter().map(|&g| at(per_gpu, g)))
                && links < gbps
            {
                gbps = links;
                how = format!("{over}: the {} {side} links, {links:.0} GB/s together", gpus.len());
            }
        }
        Some(Theoretical { gbps, how })
    }
}

/// Fails `point` if its highest sample is past `ceiling` by more than the
/// tolerance the GPU ceilings allow: it keeps its key, loses its figures, says why.
pub fn check(point: &mut Point, ceiling: &Theoretical) {
    let Some(highest) = point.value.map(|v| v.max) else {
        return;
    };
    if point.status.is_ok() && highest > ceiling.gbps * (1.0 + CEILING_TOLERANCE) {
        point.status = Status::Failed(format!(
            "{highest:.0} GB/s exceeds the links' theoretical {:.0} GB/s ({}): a measurement error, not a finding",
            ceiling.gbps, ceiling.how
        ));
        point.value = None;
        point.extra.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::{LinkFigures, check};
    use crate::report::{Point, PointKey, Work};

    /// Eight GPUs on NVSwitches, 478 GB/s each; GPU 7 lost half its links.
    fn switched() -> LinkFigures {
        let gpu = |g: usize| if g == 7 { 239.0f64 } else { 478.0 };
        LinkFigures {
            routes: (0..8)
                .map(|s| (0..8).map(|d| (s != d).then(|| gpu(s).min(gpu(d)))).collect())
                .collect(),
            gpu_nvlink: (0..8).map(|g| Some(gpu(g))).collect(),
            pcie: vec![Some(63.0); 8],
        }
    }

    #[test]
    fn a_set_is_bounded_by_its_routes_and_by_each_side_s_links() {
        let links = switched();
        assert_eq!(links.of_copies(&[(0, 1)]).unwrap().gbps, 478.0);
        assert_eq!(links.of_copies(&[(0, 7)]).unwrap().gbps, 239.0);
        let bisection: Vec<(usize, usize)> = (0..4).map(|i| (i, i + 4)).collect();
        let b = links.of_copies(&bisection).unwrap();
        assert_eq!(b.gbps, 3.0 * 478.0 + 239.0);
        // All to one: seven routes, but one receiver's links.
        let into_0: Vec<(usize, usize)> = (1..8).map(|s| (s, 0)).collect();
        let hub = links.of_copies(&into_0).unwrap();
        assert_eq!(hub.gbps, 478.0);
        assert!(hub.how.contains("receivers'"), "{}", hub.how);
        // All to all: every GPU sends with all its links.
        let all: Vec<(usize, usize)> = (0..8)
            .flat_map(|s| (0..8).filter(move |&d| d != s).map(move |d| (s, d)))
            .collect();
        assert_eq!(links.of_copies(&all).unwrap().gbps, 7.0 * 478.0 + 239.0);
    }

    #[test]
    fn without_nvlink_pcie_bounds_and_a_mix_or_a_gap_gives_nothing() {
        let mut links = switched();
        links.routes[0][1] = None;
        links.routes[1][0] = None;
        assert_eq!(links.of_copies(&[(0, 1), (1, 0)]).unwrap().gbps, 126.0);
        assert_eq!(links.of_copies(&[(0, 1), (2, 3)]), None);
        links.pcie[1] = None;
        assert_eq!(links.of_copies(&[(0, 1)]), None);
        assert_eq!(LinkFigures::default().of_copies(&[(0, 1)]), None);
        assert_eq!(links.of_copies(&[]), None);
    }

    #[test]
    fn a_figure_past_the_links_fails_and_one_within_them_stands() {
        let ceiling = switched().of_copies(&[(0, 1)]).unwrap();
        let point = |gbps: f64| {
            Point::measured(
                PointKey::Pair { src: 0, dst: 1 },
                &[gbps * 0.99, gbps],
                Work::bytes(1, 1 << 30),
                None,
            )
            .unwrap()
            .with_extra("NVLink theoretical (GB/s)", 478.0)
        };
        let mut fine = point(480.0);
        check(&mut fine, &ceiling);
        assert!(fine.status.is_ok(), "within 3%");
        let mut impossible = point(600.0);
        check(&mut impossible, &ceiling);
        let why = impossible.status.reason().unwrap();
        assert!(
            why.contains("600 GB/s exceeds the links' theoretical 478 GB/s"),
            "{why}"
        );
        assert_eq!(impossible.value, None);
        assert!(impossible.extra.is_empty());
    }
}
