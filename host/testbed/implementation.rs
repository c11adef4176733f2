use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Who wrote the code being measured: the programming model of a series.
///
/// Reports compare every implementation against the Rust one, point by point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Implementation {
    /// A kernel of the `kernels-gpu` crate, compiled by rustc to PTX.
    Rust,
    /// Its CUDA C twin (`host/cuda_c/`), compiled at run time by NVRTC to PTX for the same target.
    CudaC,
    /// Its OpenCL C twin (`host/opencl_c/`), built at run time by the platform's OpenCL compiler.
    #[serde(rename = "opencl-c")]
    OpenClC,
    /// NVIDIA's cuBLAS library (the vendor baseline).
    Cublas,
    /// The driver's copy engines (`cuMemcpy*`), no kernel of ours.
    #[serde(alias = "driver")]
    CopyEngine,
    /// A performance model's prediction, not a measurement.
    Model,
}

impl Implementation {
    /// Every implementation, in the order reports list them.
    pub const ALL: [Self; 6] = [
        Self::Rust,
        Self::CudaC,
        Self::OpenClC,
        Self::Cublas,
        Self::CopyEngine,
        Self::Model,
    ];

    /// The ones `--impl` can pick (a model is not run, it is computed).
    pub const SELECTABLE: [Self; 5] = [Self::Rust, Self::CudaC, Self::OpenClC, Self::Cublas, Self::CopyEngine];

    pub fn label(self) -> &'static str {
        match self {
            Self::Rust => "Rust",
            Self::CudaC => "CUDA C",
            Self::OpenClC => "OpenCL C",
            Self::Cublas => "cuBLAS",
            Self::CopyEngine => "copy engine",
            Self::Model => "model",
        }
    }

    /// The name `--impl` takes.
    pub fn flag(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::CudaC => "cuda-c",
            Self::OpenClC => "opencl",
            Self::Cublas => "cublas",
            Self::CopyEngine => "copy-engine",
            Self::Model => "model",
        }
    }

    /// Whether the implementation runs kernels from a module of its own (and so has twins of the Rust kernels).
    pub fn is_kernel_twin(self) -> bool {
        matches!(self, Self::CudaC | Self::OpenClC)
    }
}

impl fmt::Display for Implementation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The implementations a run measures (`--impl`): all by default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImplementationSet(Vec<Implementation>);

impl Default for ImplementationSet {
    fn default() -> Self {
        Self(Implementation::SELECTABLE.to_vec())
    }
}

impl ImplementationSet {
    /// Parses `rust,cuda-c,opencl,cublas,copy-engine` (any subset, any order; `all`).
    pub fn parse(list: &str) -> Result<Self> {
        if list.trim() == "all" {
            return Ok(Self::default());
        }
        let mut chosen = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let implementation = Implementation::SELECTABLE
                .into_iter()
                .find(|i| i.flag() == name || (name == "opencl-c" && *i == Implementation::OpenClC))
                .ok_or_else(|| {
                    let known: Vec<&str> = Implementation::SELECTABLE.iter().map(|i| i.flag()).collect();
                    Error::InvalidInput(format!(
                        "--impl: unknown implementation {name:?}; known: {}, or all",
                        known.join(", ")
                    ))
                })?;
            if !chosen.contains(&implementation) {
                chosen.push(implementation);
            }
        }
        if chosen.is_empty() {
            return Err(Error::InvalidInput("--impl names no implementation".into()));
        }
        chosen.sort();
        Ok(Self(chosen))
    }

    pub fn contains(&self, implementation: Implementation) -> bool {
        implementation == Implementation::Model || self.0.contains(&implementation)
    }

    pub fn iter(&self) -> impl Iterator<Item = Implementation> + '_ {
        self.0.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::{Implementation, ImplementationSet};

    #[test]
    fn impl_lists_parse_in_any_order_and_refuse_unknown_names() {
        let set = ImplementationSet::parse("opencl, rust,rust").unwrap();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Implementation::Rust, Implementation::OpenClC]
        );
        assert!(
            set.contains(Implementation::Model),
            "models are computed, never deselected"
        );
        assert!(!set.contains(Implementation::CudaC));
        assert_eq!(ImplementationSet::parse("all").unwrap(), ImplementationSet::default());
        let error = ImplementationSet::parse("rust,fortran").unwrap_err().to_string();
        assert!(error.contains("\"fortran\"") && error.contains("cuda-c"), "{error}");
        assert!(ImplementationSet::parse(" , ").is_err());
    }

    #[test]
    fn reports_of_the_first_schema_call_the_copy_engine_driver() {
        let old: Implementation = serde_json::from_str("\"driver\"").unwrap();
        assert_eq!(old, Implementation::CopyEngine);
        assert_eq!(serde_json::to_string(&Implementation::OpenClC).unwrap(), "\"opencl-c\"");
    }
}
