//! A CUDA device ordinal: the number the driver (`cuDeviceGet`) and `--device`
//! call a GPU by, and what reports name GPUs by ("GPU 1").
//!
//! It is not a device's place in the run: with `--device 1` the run's first
//! (and only) device is CUDA ordinal 1. Experiments that index the testbed's
//! devices by position (`devices()[slot]`) keep a plain `usize` for that, and
//! the two can no longer be mixed up silently.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A CUDA device ordinal (serialized as the bare number, as reports always had it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CudaOrdinal(pub usize);

impl fmt::Display for CudaOrdinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::CudaOrdinal;

    #[test]
    fn ordinals_print_and_serialize_as_the_bare_number() {
        assert_eq!(CudaOrdinal(3).to_string(), "3");
        assert_eq!(serde_json::to_string(&CudaOrdinal(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<CudaOrdinal>("2").unwrap(), CudaOrdinal(2));
        assert!(serde_json::from_str::<CudaOrdinal>("-1").is_err());
    }
}
