//! NUMA placement of host memory: which node a GPU hangs off (Linux sysfs),
//! which CPUs a node has, and a thread bound to them while it allocates the
//! host buffers a GPU will copy from, so that the pinned pages land on the
//! GPU's own node (Linux places a page on the node of the CPU that first
//! touches it; pinning touches every page). On hosts with one node, or where
//! sysfs says nothing, there is nothing to bind and nothing is done.

use std::path::Path;

const NODES: &str = "/sys/devices/system/node";

/// The NUMA nodes this host has (`/sys/devices/system/node/node<N>`); 1 when sysfs says nothing.
pub fn node_count() -> usize {
    let Ok(entries) = std::fs::read_dir(NODES) else {
        return 1;
    };
    let nodes = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("node")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .count();
    nodes.max(1)
}

/// The node of the PCI device `bus_id` (`0000:18:00`, as [`crate::gpu::DeviceInfo::pci_bus_id`]
/// holds it); `None` where sysfs has no node for it (`-1`) or no such file.
pub fn pci_device_node(bus_id: &str) -> Option<u32> {
    let path = Path::new("/sys/bus/pci/devices").join(format!("{}.0", bus_id.to_ascii_lowercase()));
    let text = std::fs::read_to_string(path.join("numa_node")).ok()?;
    text.trim().parse::<i64>().ok().and_then(|n| u32::try_from(n).ok())
}

/// The CPUs of node `node`, from its `cpulist`.
pub fn node_cpus(node: u32) -> Option<Vec<usize>> {
    let text = std::fs::read_to_string(format!("{NODES}/node{node}/cpulist")).ok()?;
    parse_cpu_list(&text)
}

/// Parses a kernel CPU list (`0-15,32-47`, `3`, an empty list); `None` when malformed.
pub fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
                if a > b || b - a > 1 << 16 {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.parse().ok()?),
        }
    }
    Some(cpus)
}

/// The calling thread bound to a set of CPUs (`sched_setaffinity`) until
/// dropped, when its previous mask comes back.
pub struct ThreadAffinity {
    previous: libc::cpu_set_t,
}

impl ThreadAffinity {
    /// Binds the calling thread to the CPUs of NUMA node `node`; `Err` with why not
    /// (no such node in sysfs, no CPU of it allowed, the call refused).
    pub fn bind_to_node(node: u32) -> std::result::Result<Self, String> {
        let cpus = node_cpus(node).ok_or_else(|| format!("sysfs lists no CPUs for NUMA node {node}"))?;
        Self::bind(&cpus).map_err(|e| format!("cannot bind to NUMA node {node}'s CPUs: {e}"))
    }

    /// Binds the calling thread to `cpus`.
    pub fn bind(cpus: &[usize]) -> std::result::Result<Self, String> {
        let limit = 8 * size_of::<libc::cpu_set_t>();
        // SAFETY: cpu_set_t is a plain bit array; all-zero is the empty set.
        let mut previous: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: pid 0 is the calling thread; the size and pointer describe `previous`.
        if unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut previous) } != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
        // SAFETY: as above.
        let mut wanted: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let mut any = false;
        for &cpu in cpus.iter().filter(|&&c| c < limit) {
            // SAFETY: cpu < CPU_SETSIZE (checked), so both macros stay inside the sets.
            if unsafe { libc::CPU_ISSET(cpu, &previous) } {
                unsafe { libc::CPU_SET(cpu, &mut wanted) };
                any = true;
            }
        }
        if !any {
            return Err("none of its CPUs is allowed to this process".into());
        }
        // SAFETY: pid 0 is the calling thread; `wanted` is a valid, non-empty set.
        if unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &wanted) } != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
        Ok(Self { previous })
    }
}

impl Drop for ThreadAffinity {
    fn drop(&mut self) {
        // SAFETY: restores the mask read from this thread when the value was made.
        let _ = unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &self.previous) };
    }
}

/// Where the host buffers of one GPU were placed, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostPlacement {
    /// Pinned while bound to the GPU's node.
    OnNode(u32),
    /// One node on this host: nothing to choose.
    SingleNode,
    /// Several nodes, but the GPU's is unknown or could not be bound: wherever the OS put it.
    Unplaced(String),
}

impl HostPlacement {
    pub fn describe(&self) -> String {
        match self {
            Self::OnNode(node) => format!("on the GPU's NUMA node {node}"),
            Self::SingleNode => "one NUMA node on this host".into(),
            Self::Unplaced(why) => format!("not placed ({why})"),
        }
    }
}

/// Binds the calling thread to GPU `pci_bus_id`'s NUMA node where the host has several:
/// the guard (if any) and where host memory allocated under it lands.
pub fn bind_near_gpu(pci_bus_id: &str) -> (Option<ThreadAffinity>, HostPlacement) {
    if node_count() < 2 {
        return (None, HostPlacement::SingleNode);
    }
    let Some(node) = pci_device_node(pci_bus_id) else {
        return (
            None,
            HostPlacement::Unplaced(format!("sysfs gives no NUMA node for {pci_bus_id}")),
        );
    };
    match ThreadAffinity::bind_to_node(node) {
        Ok(guard) => (Some(guard), HostPlacement::OnNode(node)),
        Err(why) => (None, HostPlacement::Unplaced(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::{ThreadAffinity, parse_cpu_list};

    #[test]
    fn cpu_lists_parse_like_the_kernel_writes_them() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list("5"), Some(vec![5]));
        assert_eq!(parse_cpu_list("\n"), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("a-b"), None);
    }

    #[test]
    fn binding_restores_the_previous_mask() {
        let before = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        {
            let _guard = ThreadAffinity::bind(&[0]).expect("CPU 0 is allowed");
            assert_eq!(std::thread::available_parallelism().unwrap().get(), 1);
        }
        assert_eq!(std::thread::available_parallelism().unwrap().get(), before);
        assert!(ThreadAffinity::bind(&[]).is_err());
    }
}
