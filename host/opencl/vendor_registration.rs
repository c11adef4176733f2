//! Registering NVIDIA's OpenCL driver with the ICD loader when the system did not.
//!
//! The ICD loader (`libOpenCL.so.1`) finds drivers through the `.icd` files of
//! `/etc/OpenCL/vendors`. A container given the NVIDIA driver libraries (e.g. in
//! `/usr/local/nvidia/lib64`) often lacks NVIDIA's `.icd` file, so OpenCL lists
//! only the other drivers (PoCL) although `libnvidia-opencl.so.1` is there.
//!
//! The fix is an environment variable read by the loader when it first runs.
//! Debian's loader (ocl-icd 2.3) honours `OCL_ICD_VENDORS` (a directory of
//! `.icd` files) but not the Khronos loader's `OCL_ICD_FILENAMES`; the Khronos
//! loader honours both. So this writes a private vendors directory with
//! NVIDIA's entry beside copies of the registered ones and points
//! `OCL_ICD_VENDORS` at it, which works with either loader (setting both
//! variables would list NVIDIA twice under the Khronos loader).

use std::ffi::CString;
use std::path::{Path, PathBuf};

/// Where NVIDIA's OpenCL driver may be, in the order tried: by name (the
/// dynamic loader's search path), then the usual container and distribution paths.
pub const NVIDIA_OPENCL_CANDIDATES: [&str; 4] = [
    "libnvidia-opencl.so.1",
    "/usr/local/nvidia/lib64/libnvidia-opencl.so.1",
    "/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1",
    "/usr/lib64/libnvidia-opencl.so.1",
];

/// Creates `dir` with mode 0700, or accepts an existing one only if it is a folder (not a link)
/// of user `uid` that no one else may write: the loader loads every library its `.icd` files
/// name, so a folder another user made in the shared temporary directory must not be used.
fn private_dir(dir: &Path, uid: u32) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o022 != 0 {
        return Err(std::io::Error::other(
            "it exists and is not a private folder of this user (a link, another user's, or writable by others)",
        ));
    }
    Ok(())
}

/// Writes `bytes` to `path`, never through a symbolic link.
fn write_no_follow(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?
        .write_all(bytes)
}

/// The system's vendors directory (ocl-icd also reads `OPENCL_VENDOR_PATH`).
const SYSTEM_VENDORS_DIR: &str = "/etc/OpenCL/vendors";

/// What to register: the `.icd` files of a private vendors directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VendorRegistration {
    /// `(file name, library)` of each `.icd` file to write.
    pub icd_files: Vec<(String, String)>,
    /// The sentence a report shows.
    pub note: String,
}

/// Decides, from the environment and the registered `.icd` files (`(file name,
/// library)`), whether NVIDIA's driver (`nvidia_library`, where it loads) must be
/// registered: not when the user already steers the loader (`OCL_ICD_VENDORS`
/// or `OCL_ICD_FILENAMES` set), not when an `.icd` file already names
/// `libnvidia-opencl`, not when NVIDIA's library does not load.
pub fn plan_vendor_registration(
    loader_variables_set: bool,
    registered: &[(String, String)],
    nvidia_library: Option<&str>,
) -> Option<VendorRegistration> {
    if loader_variables_set
        || registered
            .iter()
            .any(|(_, library)| library.contains("libnvidia-opencl"))
    {
        return None;
    }
    let nvidia = nvidia_library?;
    let mut icd_files = registered.to_vec();
    icd_files.push(("ptxsuite-nvidia.icd".into(), nvidia.into()));
    let others: Vec<&str> = registered.iter().map(|(name, _)| name.as_str()).collect();
    let note = format!(
        "NVIDIA's OpenCL driver ({nvidia}) loads but no .icd file in {SYSTEM_VENDORS_DIR} names it{}; \
         registered it for this run through OCL_ICD_VENDORS",
        if others.is_empty() {
            String::new()
        } else {
            format!(" (registered there: {})", others.join(", "))
        }
    );
    Some(VendorRegistration { icd_files, note })
}

/// The registered `.icd` files of `dir`: `(file name, first line)`.
pub fn registered_icd_files(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "icd"))
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.path()).ok()?;
            let library = text.lines().next()?.trim().to_string();
            (!library.is_empty()).then(|| (entry.file_name().to_string_lossy().into_owned(), library))
        })
        .collect();
    files.sort();
    files
}

/// The first of [`NVIDIA_OPENCL_CANDIDATES`] that `dlopen` loads (it is closed again at once).
pub fn loadable_nvidia_library() -> Option<&'static str> {
    NVIDIA_OPENCL_CANDIDATES.into_iter().find(|candidate| {
        let Ok(name) = CString::new(*candidate) else {
            return false;
        };
        // SAFETY: name is NUL-terminated; a handle returned is closed once. Loading runs the
        // library's initializers, which the ICD loader would run anyway.
        unsafe {
            let handle = libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if handle.is_null() {
                false
            } else {
                libc::dlclose(handle);
                true
            }
        }
    })
}

/// Registers NVIDIA's OpenCL driver for this process where the system did not
/// (see the module docs): writes the `.icd` files of a private vendors
/// directory and sets `OCL_ICD_VENDORS` to it. Returns the note to show, or
/// `None` when nothing needed doing (or nothing could be done: then OpenCL
/// simply lists what the system registered).
///
/// # Safety
/// Sets an environment variable: call at the very start of `main`, before any
/// other thread exists and before any OpenCL call.
pub unsafe fn register_vendor_libraries() -> Option<String> {
    let loader_variables_set = ["OCL_ICD_VENDORS", "OCL_ICD_FILENAMES"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()));
    let system_dir = std::env::var_os("OPENCL_VENDOR_PATH")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(SYSTEM_VENDORS_DIR), PathBuf::from);
    let registered = registered_icd_files(&system_dir);
    let plan = plan_vendor_registration(loader_variables_set, &registered, loadable_nvidia_library())?;
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let dir = std::env::temp_dir().join(format!("ptxsuite-opencl-vendors-{uid}"));
    let written = private_dir(&dir, uid).and_then(|()| {
        for (name, _) in registered_icd_files(&dir) {
            std::fs::remove_file(dir.join(name))?;
        }
        for (name, library) in &plan.icd_files {
            write_no_follow(&dir.join(name), format!("{library}\n").as_bytes())?;
        }
        Ok(())
    });
    if let Err(e) = written {
        return Some(format!(
            "NVIDIA's OpenCL driver is not registered with the ICD loader, and writing a vendors directory at {} failed: {e}",
            dir.display()
        ));
    }
    // SAFETY: the caller guarantees no other thread runs (the function's contract).
    unsafe { std::env::set_var("OCL_ICD_VENDORS", &dir) };
    Some(format!("{} ({})", plan.note, dir.display()))
}

#[cfg(test)]
mod tests {
    use super::private_dir;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn only_a_private_folder_of_this_user_is_used() {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let base = std::env::temp_dir().join(format!("ptxsuite-private-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let fresh = base.join("fresh");
        private_dir(&fresh, uid).unwrap();
        assert_eq!(std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, 0o700);
        let shared = base.join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            private_dir(&shared, uid).is_err(),
            "a folder others may write is refused"
        );
        let link = base.join("link");
        std::os::unix::fs::symlink(&fresh, &link).unwrap();
        assert!(private_dir(&link, uid).is_err(), "a link is refused");
        assert!(
            private_dir(&fresh, uid + 1).is_err(),
            "another user's folder is refused"
        );
        let _ = std::fs::remove_dir_all(base);
    }
}
