//! The index space of a kernel launch (OpenCL's NDRange): global and local sizes in work-items.

/// Global and work-group (local) sizes, in work-items, of a 1-, 2- or 3-D launch.
/// OpenCL's global size counts work-items, not work-groups: a CUDA grid of
/// `g` blocks of `b` threads is a global size of `g * b` with a local size of `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub dimensions: u32,
    pub global: [usize; 3],
    pub local: [usize; 3],
}

impl NdRange {
    /// `groups` work-groups of `local` work-items, 1-D.
    pub fn groups_1d(groups: usize, local: usize) -> Self {
        Self {
            dimensions: 1,
            global: [groups * local, 1, 1],
            local: [local, 1, 1],
        }
    }

    /// `(groups_x, groups_y)` work-groups of `(local_x, local_y)` work-items, 2-D.
    pub fn groups_2d((groups_x, groups_y): (usize, usize), (local_x, local_y): (usize, usize)) -> Self {
        Self {
            dimensions: 2,
            global: [groups_x * local_x, groups_y * local_y, 1],
            local: [local_x, local_y, 1],
        }
    }

    /// Work-items per work-group.
    pub fn work_group_size(&self) -> usize {
        self.local.iter().product()
    }

    /// Work-groups in the launch.
    pub fn work_groups(&self) -> usize {
        (0..3).map(|d| self.global[d] / self.local[d].max(1)).product()
    }

    /// Why OpenCL would refuse this range (a zero size, a global size not a
    /// multiple of the local one, or more than 3 dimensions), if it would.
    pub fn problem(&self) -> Option<String> {
        if !(1..=3).contains(&self.dimensions) {
            return Some(format!("{} dimensions (OpenCL allows 1 to 3)", self.dimensions));
        }
        (0..self.dimensions as usize).find_map(|d| {
            let (global, local) = (self.global[d], self.local[d]);
            (global == 0 || local == 0 || !global.is_multiple_of(local)).then(|| {
                format!("dimension {d}: global size {global} is not a positive multiple of local size {local}")
            })
        })
    }
}
