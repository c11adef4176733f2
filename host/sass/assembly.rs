//! PTX to SASS: `ptxas` assembles a module (or one entry) for one GPU
//! architecture into a cubin, the disassembler lists it, the listing is
//! read into functions. Each (PTX, architecture, entry, ptxas) is done
//! once per process; the tools run with a time limit in a private
//! temporary directory that is removed afterwards.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::listing::{SassFunction, parse_listing};
use super::tool_run::{PrivateDir, run_tool};
use super::tool_search::{Disassembler, SassTools, SassWaived};

/// The longest `ptxas` or the disassembler may take.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(120);

/// A module's SASS for one architecture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassModule {
    /// The architecture assembled for, e.g. `sm_90`.
    pub arch: String,
    /// The tools and their versions ([`SassTools::describe`]).
    pub tools: String,
    pub functions: Vec<SassFunction>,
}

impl SassModule {
    /// The function (kernel) called `name`.
    pub fn function(&self, name: &str) -> Option<&SassFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// `sm_90`, `sm_90a`, `sm_100f`: what ptxas's `-arch` takes for real code.
fn is_real_arch(arch: &str) -> bool {
    arch.strip_prefix("sm_").is_some_and(|rest| {
        let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
        !digits.is_empty() && digits.len() + 1 >= rest.len() && digits.chars().all(|c| c.is_ascii_digit())
    })
}

/// Assembles `ptx` for `arch` (only `entry`, if given) and lists its SASS.
pub fn assemble(tools: &SassTools, ptx: &str, arch: &str, entry: Option<&str>) -> Result<SassModule, SassWaived> {
    if !is_real_arch(arch) {
        return Err(SassWaived::new(format!("{arch:?} is not a GPU architecture (sm_XY)")));
    }
    let dir = PrivateDir::new().map_err(SassWaived::new)?;
    let ptx_path = dir.path().join("module.ptx");
    let cubin_path = dir.path().join("module.cubin");
    std::fs::write(&ptx_path, ptx).map_err(|e| SassWaived::new(format!("cannot write the PTX for ptxas: {e}")))?;
    let arch_flag = format!("-arch={arch}");
    let mut args: Vec<&OsStr> = vec![OsStr::new(&arch_flag)];
    if let Some(entry) = entry {
        args.extend([OsStr::new("-e"), OsStr::new(entry)]);
    }
    args.extend([OsStr::new("-o"), cubin_path.as_os_str(), ptx_path.as_os_str()]);
    let run = |program: &std::path::Path, args: &[&OsStr]| {
        run_tool(program, args, &dir, &tools.search_path, TOOL_TIMEOUT).map_err(SassWaived::new)
    };
    let assembled = run(&tools.ptxas.path, &args)?;
    if !assembled.status.success() {
        return Err(SassWaived::new(format!(
            "ptxas {} could not assemble the PTX for {arch}: {}",
            tools.ptxas.version,
            assembled.complaint()
        )));
    }
    let (program, args): (&PathBuf, [&OsStr; 2]) = match &tools.disassembler {
        Disassembler::Nvdisasm(tool) => (&tool.path, [OsStr::new("-c"), cubin_path.as_os_str()]),
        Disassembler::Cuobjdump(tool) => (&tool.path, [OsStr::new("-sass"), cubin_path.as_os_str()]),
    };
    let listed = run(program, &args)?;
    let name = tools.disassembler.tool().describe();
    if !listed.status.success() {
        return Err(SassWaived::new(format!(
            "{name} could not list the cubin: {}",
            listed.complaint()
        )));
    }
    let functions = parse_listing(&listed.stdout);
    if functions.is_empty() {
        return Err(SassWaived::new(format!("{name} listed no function for {arch}")));
    }
    Ok(SassModule {
        arch: arch.to_string(),
        tools: tools.describe(),
        functions,
    })
}

type CacheKey = (u64, String, Option<String>, PathBuf);

/// [`assemble`], done once per process for each PTX text (by hash),
/// architecture, entry and `ptxas`.
pub fn assembled(tools: &SassTools, ptx: &str, arch: &str, entry: Option<&str>) -> Arc<Result<SassModule, SassWaived>> {
    type Cache = Option<HashMap<CacheKey, Arc<Result<SassModule, SassWaived>>>>;
    static CACHE: Mutex<Cache> = Mutex::new(None);
    fn lock() -> std::sync::MutexGuard<'static, Cache> {
        CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    ptx.hash(&mut hasher);
    let key = (
        hasher.finish(),
        arch.to_string(),
        entry.map(str::to_string),
        tools.ptxas.path.clone(),
    );
    if let Some(found) = lock().get_or_insert_with(HashMap::new).get(&key) {
        return found.clone();
    }
    // Assembled outside the lock: another thread may do the same key meanwhile; the first stored wins.
    let result = Arc::new(assemble(tools, ptx, arch, entry));
    lock()
        .get_or_insert_with(HashMap::new)
        .entry(key)
        .or_insert(result)
        .clone()
}

#[cfg(test)]
mod tests {
    use super::{assemble, is_real_arch};
    use crate::sass::tool_search::{Disassembler, SassTools, Tool};

    #[test]
    fn only_real_architectures_are_passed_to_ptxas() {
        for arch in ["sm_75", "sm_90", "sm_90a", "sm_100f", "sm_120"] {
            assert!(is_real_arch(arch), "{arch}");
        }
        for arch in [
            "compute_90",
            "sm_",
            "sm_9x0",
            "90",
            "sm_90; rm",
            "-arch=sm_90",
            "sm_90ab",
        ] {
            assert!(!is_real_arch(arch), "{arch}");
        }
        let tools = SassTools {
            ptxas: Tool {
                path: "/nonexistent/ptxas".into(),
                version: "0".into(),
            },
            disassembler: Disassembler::Nvdisasm(Tool {
                path: "/nonexistent/nvdisasm".into(),
                version: "0".into(),
            }),
            search_path: Vec::new(),
        };
        let waived = assemble(&tools, "", "compute_90", None).unwrap_err();
        assert!(waived.why.contains("not a GPU architecture"), "{waived}");
        let waived = assemble(&tools, "", "sm_90", None).unwrap_err();
        assert!(waived.why.contains("cannot run /nonexistent/ptxas"), "{waived}");
    }
}
