//! The index space of a kernel launch (OpenCL's NDRange): global and local sizes in work-items.

/// Global and work-group (local) sizes, in work-items, of a 1-, 2- or 3-D launch.
/// OpenCL's global size counts work-items, not work-groups: a CUDA grid of
/// `g` blocks of `b` threads is a global size of `g * b` with a local size of `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub dimensions: u32,
    pub global: [usize; 3],
    /// Work-items per work-group in each dimension, or `None` to let the
    /// OpenCL runtime choose (a NULL `local_work_size` in
    /// `clEnqueueNDRangeKernel`, which the NVIDIA guides advise against: the
    /// runtime does not know the kernel's best size, and must pick one that
    /// divides the global size).
    pub local: Option<[usize; 3]>,
}

impl NdRange {
    /// `groups` work-groups of `local` work-items, 1-D.
    pub fn groups_1d(groups: usize, local: usize) -> Self {
        Self {
            dimensions: 1,
            global: [groups * local, 1, 1],
            local: Some([local, 1, 1]),
        }
    }

    /// `(groups_x, groups_y)` work-groups of `(local_x, local_y)` work-items, 2-D.
    pub fn groups_2d((groups_x, groups_y): (usize, usize), (local_x, local_y): (usize, usize)) -> Self {
        Self {
            dimensions: 2,
            global: [groups_x * local_x, groups_y * local_y, 1],
            local: Some([local_x, local_y, 1]),
        }
    }

    /// `global` work-items, 1-D, in work-groups whose size the OpenCL runtime chooses.
    pub fn runtime_local_1d(global: usize) -> Self {
        Self {
            dimensions: 1,
            global: [global, 1, 1],
            local: None,
        }
    }

    /// Work-items per work-group; `None` where the runtime chooses.
    pub fn work_group_size(&self) -> Option<usize> {
        self.local.map(|local| local.iter().product())
    }

    /// Work-groups in the launch; `None` where the runtime chooses their size.
    pub fn work_groups(&self) -> Option<usize> {
        let local = self.local?;
        Some((0..3).map(|d| self.global[d] / local[d].max(1)).product())
    }

    /// Why OpenCL would refuse this range (a zero size, a global size not a
    /// multiple of the local one, or more than 3 dimensions), if it would.
    pub fn problem(&self) -> Option<String> {
        if !(1..=3).contains(&self.dimensions) {
            return Some(format!("{} dimensions (OpenCL allows 1 to 3)", self.dimensions));
        }
        (0..self.dimensions as usize).find_map(|d| {
            let global = self.global[d];
            match self.local {
                None => (global == 0).then(|| format!("dimension {d}: global size 0")),
                Some(local) => (global == 0 || local[d] == 0 || !global.is_multiple_of(local[d])).then(|| {
                    format!(
                        "dimension {d}: global size {global} is not a positive multiple of local size {}",
                        local[d]
                    )
                }),
            }
        })
    }
}
