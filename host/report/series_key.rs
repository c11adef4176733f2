use std::fmt;

use serde::{Deserialize, Serialize};

use crate::facts::Implementation;

/// The GPUs a series ran on: one, an ordered (source, destination) pair, or all at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Devices {
    One(usize),
    Pair { src: usize, dst: usize },
    All,
}

impl fmt::Display for Devices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::One(gpu) => write!(f, "GPU {gpu}"),
            Self::Pair { src, dst } => write!(f, "GPU {src} → GPU {dst}"),
            Self::All => f.write_str("all GPUs"),
        }
    }
}

/// What identifies a series across runs and reports: `compare`, `merge`,
/// the ratio columns and the experiments' narratives find series by key,
/// never by their display label.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SeriesKey {
    /// The kernel entry point, library call or operation (`offset_copy`, `cublasSgemm`, `cuMemcpyHtoD`).
    pub kernel: String,
    pub implementation: Implementation,
    /// Element type moved or computed (`f16`, `f32`, `f64`, `f32x4`).
    pub element: String,
    /// What else tells two series of one kernel apart (`pinned`, `read`, `staged`); empty when nothing does.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    pub devices: Devices,
}

impl SeriesKey {
    pub fn new(kernel: impl Into<String>, implementation: Implementation, element: impl Into<String>) -> Self {
        Self {
            kernel: kernel.into(),
            implementation,
            element: element.into(),
            variant: String::new(),
            devices: Devices::One(0),
        }
    }

    pub fn variant(mut self, variant: impl Into<String>) -> Self {
        self.variant = variant.into();
        self
    }

    pub fn on(mut self, devices: Devices) -> Self {
        self.devices = devices;
        self
    }

    /// The same series as run by another implementation (for ratios against Rust).
    pub fn with_implementation(&self, implementation: Implementation) -> Self {
        Self {
            implementation,
            ..self.clone()
        }
    }

    /// Whether `self` is `other` apart from the implementation: twins of one kernel.
    pub fn is_twin_of(&self, other: &Self) -> bool {
        self.kernel == other.kernel
            && self.element == other.element
            && self.variant == other.variant
            && self.devices == other.devices
            && self.implementation != other.implementation
    }
}

impl fmt::Display for SeriesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} · {} [{}]",
            self.kernel,
            self.implementation.label(),
            self.element
        )?;
        if !self.variant.is_empty() {
            write!(f, " ({})", self.variant)?;
        }
        if self.devices != Devices::One(0) {
            write!(f, " on {}", self.devices)?;
        }
        Ok(())
    }
}

/// Where on the experiment's axis a point lies: a swept value (offset,
/// stride, size, stream count) or a (source, destination) pair of a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PointKey {
    Value(i64),
    Pair { src: usize, dst: usize },
}

impl PointKey {
    pub fn value(self) -> Option<i64> {
        match self {
            Self::Value(v) => Some(v),
            Self::Pair { .. } => None,
        }
    }
}

impl fmt::Display for PointKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Value(v) => write!(f, "{v}"),
            Self::Pair { src, dst } => write!(f, "{src}→{dst}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Devices, PointKey, SeriesKey};
    use crate::facts::Implementation;

    #[test]
    fn twins_differ_only_in_implementation() {
        let rust = SeriesKey::new("offset_copy", Implementation::Rust, "f32");
        let cuda = rust.with_implementation(Implementation::CudaC);
        assert!(cuda.is_twin_of(&rust));
        assert!(!rust.is_twin_of(&rust));
        assert!(!rust.clone().variant("x").is_twin_of(&cuda));
        assert!(!rust.clone().on(Devices::One(1)).is_twin_of(&cuda));
        assert_eq!(cuda.to_string(), "offset_copy · CUDA C [f32]");
    }

    #[test]
    fn point_keys_serialize_as_numbers_or_pairs() {
        assert_eq!(serde_json::to_string(&PointKey::Value(7)).unwrap(), "7");
        let pair: PointKey = serde_json::from_str(r#"{"src":1,"dst":0}"#).unwrap();
        assert_eq!(pair, PointKey::Pair { src: 1, dst: 0 });
        assert_eq!(pair.to_string(), "1→0");
    }
}
