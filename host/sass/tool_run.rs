//! Running a CUDA tool: in a private temporary directory (created for the
//! caller, mode 0700, removed when dropped), with its output in files
//! there (no pipe to fill), and a time limit after which it is killed.

use std::ffi::OsStr;
use std::fs::File;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A directory only this process uses, removed with its files on drop.
#[derive(Debug)]
pub struct PrivateDir {
    path: PathBuf,
}

impl PrivateDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new() -> Result<Self, String> {
        static CREATED: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let n = CREATED.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("ptxsuite-sass-{}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(format!(
                        "cannot create a temporary directory in {}: {e}",
                        base.display()
                    ));
                }
            }
        }
        Err(format!("cannot create a temporary directory in {}", base.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// What a tool printed and how it ended.
#[derive(Debug)]
pub struct ToolOutput {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl ToolOutput {
    /// The first lines of its error output (or its output), for a message.
    pub fn complaint(&self) -> String {
        let text = if self.stderr.trim().is_empty() {
            &self.stdout
        } else {
            &self.stderr
        };
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(3).collect();
        if lines.is_empty() {
            format!("{} with no message", self.status)
        } else {
            lines.join(" / ")
        }
    }
}

/// Runs `program` with `args` in `dir`, `first_on_path` ahead of `PATH`,
/// and waits at most `timeout`; `Err` says why it did not run or finish.
pub fn run_tool(
    program: &Path,
    args: &[&OsStr],
    dir: &PrivateDir,
    first_on_path: &[PathBuf],
    timeout: Duration,
) -> Result<ToolOutput, String> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let out_path = dir.path().join(format!("tool-{n}.out"));
    let err_path = dir.path().join(format!("tool-{n}.err"));
    let file = |path: &Path| File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()));
    let mut search = first_on_path.to_vec();
    if let Some(path) = std::env::var_os("PATH") {
        search.extend(std::env::split_paths(&path));
    }
    let joined = std::env::join_paths(search).map_err(|e| format!("a tool directory cannot go on PATH: {e}"))?;
    let name = program.display();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir.path())
        .env("PATH", joined)
        .stdin(Stdio::null())
        .stdout(file(&out_path)?)
        .stderr(file(&err_path)?)
        .spawn()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{name} did not finish within {} s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for {name}: {e}")),
        }
    };
    let read = |path: &Path| std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(ToolOutput {
        status,
        stdout: read(&out_path).map_err(|e| format!("reading {name}'s output: {e}"))?,
        stderr: read(&err_path).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::path::Path;
    use std::time::Duration;

    use super::{PrivateDir, run_tool};

    #[test]
    fn output_is_captured_and_the_directory_removed() {
        let dir = PrivateDir::new().unwrap();
        let path = dir.path().to_path_buf();
        let out = run_tool(
            Path::new("/bin/sh"),
            &[OsStr::new("-c"), OsStr::new("echo out; echo err >&2; exit 3")],
            &dir,
            &[],
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(out.stdout, "out\n");
        assert_eq!(out.stderr, "err\n");
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(out.complaint(), "err");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o700);
        drop(dir);
        assert!(!path.exists(), "the directory is removed");
    }

    #[test]
    fn a_tool_past_its_time_is_stopped() {
        let dir = PrivateDir::new().unwrap();
        let started = std::time::Instant::now();
        let err = run_tool(
            Path::new("/bin/sh"),
            &[OsStr::new("-c"), OsStr::new("exec sleep 20")],
            &dir,
            &[],
            Duration::from_millis(200),
        )
        .unwrap_err();
        assert!(err.contains("did not finish within"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));
        let missing = run_tool(Path::new("/nonexistent/ptxas"), &[], &dir, &[], Duration::from_secs(1));
        assert!(missing.unwrap_err().contains("cannot run /nonexistent/ptxas"));
    }
}
