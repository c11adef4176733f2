//! An OpenCL C program, compiled once for the context's device.

use std::ffi::CString;
use std::ptr;

use cl3::program::{
    CL_PROGRAM_BUILD_LOG, CL_PROGRAM_KERNEL_NAMES, build_program, create_program_with_source, get_program_build_data,
    get_program_data, release_program,
};
use cl3::types::cl_program;

use super::error::{ClResult, ClStatusExt};
use super::{ClContext, ClKernel, OpenClError};

/// A program built from OpenCL C source for one device, released on drop.
pub struct ClProgram {
    program: cl_program,
    device: super::OpenClDevice,
    options: String,
    build_log: String,
}

// SAFETY: programs may be used from any thread; &self methods only query or create kernels.
unsafe impl Send for ClProgram {}
// SAFETY: as above.
unsafe impl Sync for ClProgram {}

/// Text up to the first NUL, trimmed.
fn log_text(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).trim().to_string()
}

impl ClProgram {
    /// Compiles `source` with `options` (`-D NAME`, `-cl-std=CL2.0`, ...) for
    /// the context's device. A compile error is [`OpenClError::Build`] with the
    /// compiler's build log; on success the log (warnings, and NVIDIA's
    /// `-cl-nv-verbose` resource lines) is kept in [`build_log`](Self::build_log).
    pub fn build(context: &ClContext, source: &str, options: &str) -> ClResult<Self> {
        let device = context.device().clone();
        let c_options =
            CString::new(options).map_err(|_| OpenClError::Invalid("build options contain a NUL byte".into()))?;
        let program = create_program_with_source(context.raw(), &[source]).during("clCreateProgramWithSource")?;
        let mut built = Self {
            program,
            device,
            options: options.to_string(),
            build_log: String::new(),
        };
        let status = build_program(program, &[built.device.id], &c_options, None, ptr::null_mut());
        built.build_log = get_program_build_data(program, built.device.id, CL_PROGRAM_BUILD_LOG)
            .map(|bytes| log_text(&bytes))
            .unwrap_or_default();
        if let Err(code) = status {
            return Err(OpenClError::Build {
                device: built.device.name().to_string(),
                options: built.options.clone(),
                code,
                log: if built.build_log.is_empty() {
                    "(the compiler gave no log)".into()
                } else {
                    built.build_log.clone()
                },
            });
        }
        Ok(built)
    }

    /// The kernel called `name` ([`OpenClError::MissingKernel`] if the program has none).
    pub fn kernel(&self, name: &str) -> ClResult<ClKernel> {
        ClKernel::create(self.program, self.device.id, name)
    }

    /// The names of the program's kernels (`CL_PROGRAM_KERNEL_NAMES`).
    pub fn kernel_names(&self) -> ClResult<Vec<String>> {
        let bytes = get_program_data(self.program, CL_PROGRAM_KERNEL_NAMES).during("clGetProgramInfo")?;
        Ok(log_text(&bytes)
            .split(';')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect())
    }

    pub fn options(&self) -> &str {
        &self.options
    }

    /// The compiler's log of the successful build (often empty).
    pub fn build_log(&self) -> &str {
        &self.build_log
    }
}

impl Drop for ClProgram {
    fn drop(&mut self) {
        // SAFETY: the program is owned by this value and released once.
        let _ = unsafe { release_program(self.program) };
    }
}
