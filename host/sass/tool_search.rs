//! Where `ptxas`, `nvdisasm` and `cuobjdump` are, found at run time: the
//! variable named after the tool (`PTXAS`, `NVDISASM`, `CUOBJDUMP`), then
//! `PATH`, then the toolkit (`$CUDA_HOME/bin`, `/usr/local/cuda/bin`), then
//! the pip wheels' layout in a virtual environment (`nvidia-cuda-nvcc`,
//! `nvidia-cuda-nvdisasm`, `nvidia-cuda-cuobjdump`: `lib/python3.*/site-packages/nvidia/*/bin/`).
//! Absent tools are a [`SassWaived`] with the reason, never an error.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::tool_run::{PrivateDir, run_tool};

/// Why there is no SASS: a tool is missing or failed. The run goes on
/// without the SASS figures and says this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassWaived {
    pub why: String,
}

impl SassWaived {
    pub fn new(why: impl Into<String>) -> Self {
        Self { why: why.into() }
    }
}

impl std::fmt::Display for SassWaived {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "waived: {}", self.why)
    }
}

/// A tool found, with the version it reports (`13.5.37`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tool {
    pub path: PathBuf,
    pub version: String,
}

impl Tool {
    /// "nvdisasm 13.5.37 (/usr/local/cuda/bin/nvdisasm)".
    pub fn describe(&self) -> String {
        let name = self.path.file_name().unwrap_or(OsStr::new("?")).to_string_lossy();
        format!("{name} {} ({})", self.version, self.path.display())
    }
}

/// The program that lists a cubin's SASS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disassembler {
    /// `nvdisasm -c` (preferred: labels for branch targets).
    Nvdisasm(Tool),
    /// `cuobjdump -sass` (itself runs `nvdisasm`, which must be on its `PATH`).
    Cuobjdump(Tool),
}

impl Disassembler {
    pub fn tool(&self) -> &Tool {
        match self {
            Self::Nvdisasm(tool) | Self::Cuobjdump(tool) => tool,
        }
    }
}

/// The tools that turn PTX into a SASS listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassTools {
    pub ptxas: Tool,
    pub disassembler: Disassembler,
    /// Directories put ahead of `PATH` when a tool runs (the tools' own).
    pub search_path: Vec<PathBuf>,
}

impl SassTools {
    /// "ptxas 13.5.37 (…) and nvdisasm 13.5.37 (…)".
    pub fn describe(&self) -> String {
        format!("{} and {}", self.ptxas.describe(), self.disassembler.tool().describe())
    }
}

/// Where to look for the tools.
#[derive(Clone, Debug, Default)]
pub struct ToolSearch {
    /// `(variable, value)` of the set ones among `PTXAS`, `NVDISASM`, `CUOBJDUMP`.
    pub variables: Vec<(String, PathBuf)>,
    /// `PATH`'s directories.
    pub path: Vec<PathBuf>,
    /// Toolkit roots, whose `bin/` is searched.
    pub toolkits: Vec<PathBuf>,
    /// Virtual environments holding NVIDIA's wheels.
    pub venvs: Vec<PathBuf>,
}

/// The longest a tool may take to print its version.
const VERSION_TIMEOUT: Duration = Duration::from_secs(30);

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl ToolSearch {
    /// This process's environment: the three variables, `PATH`, `CUDA_HOME`
    /// (then `/usr/local/cuda`) and, where set, `VIRTUAL_ENV`.
    pub fn from_environment() -> Self {
        let variables = ["PTXAS", "NVDISASM", "CUOBJDUMP"]
            .into_iter()
            .filter_map(|v| {
                let value = std::env::var_os(v).filter(|s| !s.is_empty())?;
                Some((v.to_string(), PathBuf::from(value)))
            })
            .collect();
        let path = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        let mut toolkits: Vec<PathBuf> = std::env::var_os("CUDA_HOME")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .into_iter()
            .collect();
        toolkits.push(PathBuf::from("/usr/local/cuda"));
        let venvs = std::env::var_os("VIRTUAL_ENV")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .into_iter()
            .collect();
        Self {
            variables,
            path,
            toolkits,
            venvs,
        }
    }

    /// The wheels' copies of `tool` in `venv`: `lib/python3.*/site-packages/nvidia/*/bin/<tool>`.
    fn in_venv(venv: &Path, tool: &str) -> Vec<PathBuf> {
        let dirs = |dir: &Path| -> Vec<PathBuf> {
            let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                .map(|entries| entries.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            found.sort();
            found
        };
        dirs(&venv.join("lib"))
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("python")))
            .flat_map(|python| dirs(&python.join("site-packages").join("nvidia")))
            .map(|package| package.join("bin").join(tool))
            .collect()
    }

    /// The path of `tool` (`"ptxas"`), or why it is not there.
    pub fn locate(&self, tool: &str) -> Result<PathBuf, String> {
        let variable = tool.to_uppercase();
        if let Some((_, value)) = self.variables.iter().find(|(v, _)| *v == variable) {
            return if is_executable(value) {
                Ok(value.clone())
            } else {
                Err(format!("{variable}={} is not an executable file", value.display()))
            };
        }
        let candidates = self
            .path
            .iter()
            .map(|dir| dir.join(tool))
            .chain(self.toolkits.iter().map(|root| root.join("bin").join(tool)))
            .chain(self.venvs.iter().flat_map(|venv| Self::in_venv(venv, tool)));
        for candidate in candidates {
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
        Err(format!(
            "{tool} not found (set {variable}, put it on PATH, install the CUDA toolkit, or the {} wheel in the \
             virtual environment VIRTUAL_ENV names)",
            match tool {
                "ptxas" => "nvidia-cuda-nvcc",
                "nvdisasm" => "nvidia-cuda-nvdisasm",
                _ => "nvidia-cuda-cuobjdump",
            }
        ))
    }
}

/// The version a CUDA tool reports with `--version`: `13.5.37` from
/// "Cuda compilation tools, release 13.5, V13.5.37", else its last line.
pub fn version_of(version_output: &str) -> Option<String> {
    let last = version_output.lines().rev().find(|l| !l.trim().is_empty())?;
    let release = version_output
        .lines()
        .find(|l| l.contains("compilation tools"))
        .and_then(|l| l.split(", V").nth(1))
        .map(|v| v.trim().to_string());
    Some(release.unwrap_or_else(|| last.trim().to_string()))
}

impl ToolSearch {
    /// `tool` located ([`ToolSearch::locate`]) and asked its version.
    pub fn tool(&self, tool: &str) -> Result<Tool, String> {
        let path = self.locate(tool)?;
        let dir = PrivateDir::new()?;
        let output = run_tool(&path, &[OsStr::new("--version")], &dir, &[], VERSION_TIMEOUT)?;
        if !output.status.success() {
            return Err(format!("{} --version failed: {}", path.display(), output.complaint()));
        }
        let version =
            version_of(&output.stdout).ok_or_else(|| format!("{} --version printed nothing", path.display()))?;
        Ok(Tool { path, version })
    }
}

/// `ptxas` and a disassembler (`nvdisasm`, else `cuobjdump`), or why not.
pub fn find_tools(search: &ToolSearch) -> Result<SassTools, SassWaived> {
    let ptxas = search.tool("ptxas").map_err(SassWaived::new)?;
    let nvdisasm = search.tool("nvdisasm");
    let cuobjdump = search.tool("cuobjdump");
    let mut search_path: Vec<PathBuf> = Vec::new();
    for tool in [Ok(&ptxas), nvdisasm.as_ref(), cuobjdump.as_ref()]
        .into_iter()
        .flatten()
    {
        if let Some(parent) = tool.path.parent().filter(|p| !search_path.iter().any(|s| s == p)) {
            search_path.push(parent.to_path_buf());
        }
    }
    let disassembler = match (nvdisasm, cuobjdump) {
        (Ok(tool), _) => Disassembler::Nvdisasm(tool),
        (Err(_), Ok(tool)) => Disassembler::Cuobjdump(tool),
        (Err(no_nvdisasm), Err(no_cuobjdump)) => {
            return Err(SassWaived::new(format!(
                "no disassembler: {no_nvdisasm}; {no_cuobjdump}"
            )));
        }
    };
    Ok(SassTools {
        ptxas,
        disassembler,
        search_path,
    })
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{Disassembler, ToolSearch, find_tools, version_of};
    use crate::sass::tool_run::PrivateDir;

    /// A stand-in tool: a script printing a CUDA-style version.
    fn fake_tool(dir: &Path, name: &str, release: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!("#!/bin/sh\necho 'Cuda compilation tools, release 13.5, V{release}'\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn variables_then_path_then_toolkits_then_venvs() {
        let root = PrivateDir::new().unwrap();
        let r = root.path();
        let on_path = fake_tool(&r.join("path"), "ptxas", "1.0.1");
        let in_toolkit = fake_tool(&r.join("cuda/bin"), "ptxas", "1.0.2");
        fake_tool(&r.join("cuda/bin"), "nvdisasm", "1.0.2");
        let wheel = fake_tool(
            &r.join("venv/lib/python3.11/site-packages/nvidia/cu13/bin"),
            "ptxas",
            "1.0.3",
        );
        let by_variable = fake_tool(&r.join("own"), "ptxas", "1.0.4");
        let mut search = ToolSearch {
            variables: Vec::new(),
            path: vec![r.join("empty"), r.join("path")],
            toolkits: vec![r.join("cuda")],
            venvs: vec![r.join("venv")],
        };
        assert_eq!(search.locate("ptxas").unwrap(), on_path);
        search.path.clear();
        assert_eq!(search.locate("ptxas").unwrap(), in_toolkit);
        search.toolkits.clear();
        assert_eq!(search.locate("ptxas").unwrap(), wheel);
        search.variables.push(("PTXAS".into(), by_variable.clone()));
        assert_eq!(search.locate("ptxas").unwrap(), by_variable);
        search.variables[0].1 = r.join("own/missing");
        let why = search.locate("ptxas").unwrap_err();
        assert!(
            why.starts_with("PTXAS=") && why.ends_with("is not an executable file"),
            "{why}"
        );
        // A file without the executable bit is not a tool.
        std::fs::write(r.join("path/nvdisasm"), "").unwrap();
        search.variables.clear();
        search.path = vec![r.join("path")];
        let why = search.locate("nvdisasm").unwrap_err();
        assert!(why.contains("nvdisasm not found") && why.contains("NVDISASM"), "{why}");
    }

    #[test]
    fn absent_tools_are_a_waiver_and_present_ones_are_versioned() {
        let root = PrivateDir::new().unwrap();
        let r = root.path();
        let none = ToolSearch {
            path: vec![r.join("nothing")],
            ..ToolSearch::default()
        };
        let waived = find_tools(&none).unwrap_err();
        assert!(waived.why.contains("ptxas not found"), "{waived}");
        assert!(waived.to_string().starts_with("waived: "));
        fake_tool(&r.join("bin"), "ptxas", "13.5.37");
        let only_ptxas = ToolSearch {
            path: vec![r.join("bin")],
            ..ToolSearch::default()
        };
        let waived = find_tools(&only_ptxas).unwrap_err();
        assert!(
            waived.why.contains("no disassembler") && waived.why.contains("cuobjdump not found"),
            "{waived}"
        );
        fake_tool(&r.join("bin"), "cuobjdump", "13.5.37");
        let tools = find_tools(&only_ptxas).unwrap();
        assert!(matches!(tools.disassembler, Disassembler::Cuobjdump(_)));
        fake_tool(&r.join("bin"), "nvdisasm", "13.5.37");
        let tools = find_tools(&only_ptxas).unwrap();
        assert!(
            matches!(tools.disassembler, Disassembler::Nvdisasm(_)),
            "nvdisasm first"
        );
        assert_eq!(tools.ptxas.version, "13.5.37");
        assert_eq!(tools.search_path, [r.join("bin")]);
        assert!(tools.describe().starts_with("ptxas 13.5.37 ("), "{}", tools.describe());
    }

    #[test]
    fn versions_are_read_from_the_release_line() {
        let ptxas = "ptxas: NVIDIA (R) Ptx optimizing assembler\nCopyright (c) 2005-2026 NVIDIA Corporation\n\
                     Built on Mon_Oct_12_19:25:48_PDT_2026\nCuda compilation tools, release 13.5, V13.5.37\n\
                     Build cuda_13.5.r13.5/compiler.39125733_0\n";
        assert_eq!(version_of(ptxas).as_deref(), Some("13.5.37"));
        assert_eq!(version_of("some tool 2\n").as_deref(), Some("some tool 2"));
        assert_eq!(version_of("\n"), None);
    }
}
