//! The copies of `peer` that load the whole fabric at once: the bisection
//! (each GPU of the lower half with its partner `i + N/2` of the upper half,
//! every pair at once: lower → upper, upper → lower, and both ways together,
//! which is nvbandwidth's `multinode_bisect_write_ce` on one node) and
//! all-to-all (every GPU copying to every other at once), each by copy
//! engines, by Rust kernels pulling and by Rust kernels pushing.
//!
//! On two GPUs the bisection is the pair 0 ↔ 1 and all-to-all is both
//! directions at once; with an odd count the last GPU sits the bisection out.

use super::PeerTest;
use crate::report::{Devices, SeriesKey};
use crate::testbed::Implementation;

/// Which GPUs copy to which, all at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FabricPattern {
    /// GPU `i` → GPU `i + N/2` for every `i < N/2`.
    BisectionUp,
    /// GPU `i + N/2` → GPU `i` for every `i < N/2`.
    BisectionDown,
    /// Both of the above at once (nvbandwidth's bisect: GPU `i` → GPU `(i + N/2) mod N` for every `i`).
    Bisection,
    /// Every GPU → every other GPU.
    AllToAll,
}

impl FabricPattern {
    pub const ALL: [Self; 4] = [Self::BisectionUp, Self::BisectionDown, Self::Bisection, Self::AllToAll];

    /// The copies `(source, destination)` among `gpus` GPUs (by place in the run).
    pub fn copies(self, gpus: usize) -> Vec<(usize, usize)> {
        let half = gpus / 2;
        let up = (0..half).map(move |i| (i, i + half));
        let down = (0..half).map(move |i| (i + half, i));
        match self {
            Self::BisectionUp => up.collect(),
            Self::BisectionDown => down.collect(),
            Self::Bisection => up.chain(down).collect(),
            Self::AllToAll => (0..gpus)
                .flat_map(|src| (0..gpus).filter(move |&dst| dst != src).map(move |dst| (src, dst)))
                .collect(),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::BisectionUp => "bisection, lower half → upper half",
            Self::BisectionDown => "bisection, upper half → lower half",
            Self::Bisection => "bisection, both ways at once",
            Self::AllToAll => "all to all",
        }
    }

    /// The part of nvbandwidth's test name that says the pattern.
    fn name(self) -> &'static str {
        match self {
            Self::BisectionUp => "bisect_lower_to_upper",
            Self::BisectionDown => "bisect_upper_to_lower",
            Self::Bisection => "bisect",
            Self::AllToAll => "all_to_all",
        }
    }
}

/// One pattern made by one kind of copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FabricTest {
    pub pattern: FabricPattern,
    /// [`PeerTest::CopyEngine`], [`PeerTest::Pull`] or [`PeerTest::Push`]: who issues each copy.
    pub copy: PeerTest,
}

impl FabricTest {
    /// Every pattern by every kind of copy, patterns first.
    pub fn all() -> Vec<Self> {
        FabricPattern::ALL
            .into_iter()
            .flat_map(|pattern| PeerTest::ONE_WAY.into_iter().map(move |copy| Self { pattern, copy }))
            .collect()
    }

    /// nvbandwidth's name where it has the test (`bisect_write_ce`: its `multinode_bisect_write_ce`
    /// on one node), else one made the way it makes them (`all_to_all_read_sm`).
    pub fn nvbandwidth_name(self) -> String {
        let how = match self.copy {
            PeerTest::Pull => "read_sm",
            PeerTest::Push => "write_sm",
            _ => "write_ce",
        };
        format!("{}_{how}", self.pattern.name())
    }

    pub fn label(self) -> String {
        let how = match self.copy {
            PeerTest::Pull => "SM pulls",
            PeerTest::Push => "SM pushes",
            _ => "CE copies",
        };
        format!("{how}, {}", self.pattern.label())
    }

    /// The series key: the copy's call and implementation, the pattern as the variant, all GPUs.
    pub fn key(self) -> SeriesKey {
        let base = self.copy.key(Implementation::Rust, Devices::All);
        let how = match self.copy {
            PeerTest::Pull => ", pull",
            PeerTest::Push => ", push",
            _ => "",
        };
        SeriesKey::new(base.kernel, base.implementation, base.element)
            .variant(format!("{}{how}", self.pattern.label()))
            .on(Devices::All)
    }

    /// The test a series key belongs to.
    pub fn of_key(key: &SeriesKey) -> Option<Self> {
        Self::all().into_iter().find(|t| t.key() == *key)
    }
}

#[cfg(test)]
mod tests {
    use super::{FabricPattern, FabricTest};
    use crate::experiments::peer::PeerTest;

    #[test]
    fn eight_gpus_pair_each_with_the_one_four_places_on() {
        assert_eq!(FabricPattern::BisectionUp.copies(8), [(0, 4), (1, 5), (2, 6), (3, 7)]);
        assert_eq!(FabricPattern::BisectionDown.copies(8), [(4, 0), (5, 1), (6, 2), (7, 3)]);
        // nvbandwidth's rule: GPU i writes GPU (i + N/2) mod N, every GPU at once.
        let mut both = FabricPattern::Bisection.copies(8);
        both.sort_unstable();
        let nvbandwidth: Vec<(usize, usize)> = (0..8).map(|i| (i, (i + 4) % 8)).collect();
        assert_eq!(both, nvbandwidth);
        let all = FabricPattern::AllToAll.copies(8);
        assert_eq!(all.len(), 56);
        assert!(all.iter().all(|(s, d)| s != d));
    }

    #[test]
    fn two_gpus_make_the_pair_and_both_directions() {
        assert_eq!(FabricPattern::BisectionUp.copies(2), [(0, 1)]);
        assert_eq!(FabricPattern::BisectionDown.copies(2), [(1, 0)]);
        assert_eq!(FabricPattern::Bisection.copies(2), [(0, 1), (1, 0)]);
        assert_eq!(FabricPattern::AllToAll.copies(2), [(0, 1), (1, 0)]);
        // Four GPUs: 0 ↔ 2, 1 ↔ 3; three: GPU 2 sits the bisection out.
        assert_eq!(FabricPattern::BisectionUp.copies(4), [(0, 2), (1, 3)]);
        assert_eq!(FabricPattern::BisectionUp.copies(3), [(0, 1)]);
        assert_eq!(FabricPattern::AllToAll.copies(3).len(), 6);
    }

    #[test]
    fn every_fabric_test_has_its_own_key_and_name_apart_from_the_pair_tests() {
        let all = FabricTest::all();
        assert_eq!(all.len(), 12);
        for test in &all {
            assert_eq!(FabricTest::of_key(&test.key()), Some(*test));
            assert_eq!(PeerTest::of_key(&test.key()), None, "{} is not a matrix", test.label());
        }
        let mut names: Vec<String> = all.iter().map(|t| t.nvbandwidth_name()).collect();
        assert!(names.contains(&"bisect_write_ce".to_string()));
        assert!(names.contains(&"all_to_all_read_sm".to_string()));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 12);
    }
}
