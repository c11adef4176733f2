use std::fmt;

use crate::error::{Error, Result};
use crate::facts::CudaOrdinal;

/// Which GPUs a run uses (`--device`): one CUDA ordinal, a list (`0,2`) or `all`.
/// The run's devices come in the order given: `--device 2,0` puts ordinal 2 in
/// the run's first place (slot 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSelection {
    List(Vec<CudaOrdinal>),
    All,
}

impl Default for DeviceSelection {
    fn default() -> Self {
        Self::List(vec![CudaOrdinal(0)])
    }
}

impl DeviceSelection {
    /// Parses `--device`: an index, a comma-separated list of distinct indices, or `all`.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        if text == "all" {
            return Ok(Self::All);
        }
        let mut list: Vec<CudaOrdinal> = Vec::new();
        for part in text.split(',').map(str::trim) {
            let index = part.parse::<usize>().map(CudaOrdinal).map_err(|_| {
                Error::InvalidInput(format!(
                    "--device {text:?}: {part:?} is not a device index (give 0, a list like 0,2, or all)"
                ))
            })?;
            if list.contains(&index) {
                return Err(Error::InvalidInput(format!(
                    "--device {text:?} names device {index} twice"
                )));
            }
            list.push(index);
        }
        Ok(Self::List(list))
    }

    /// The CUDA ordinals on a machine with `available` GPUs, in the run's order
    /// (the run's slot `i` is the `i`th); an ordinal past them is an error before
    /// any GPU is opened.
    pub fn resolve(&self, available: usize) -> Result<Vec<CudaOrdinal>> {
        if available == 0 {
            return Err(Error::NoDevice);
        }
        match self {
            Self::All => Ok((0..available).map(CudaOrdinal).collect()),
            Self::List(list) => {
                if let Some(&CudaOrdinal(bad)) = list.iter().find(|i| i.0 >= available) {
                    return Err(Error::DeviceIndex {
                        requested: bad,
                        available,
                    });
                }
                Ok(list.clone())
            }
        }
    }
}

impl fmt::Display for DeviceSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::All => f.write_str("all"),
            Self::List(list) => {
                let text: Vec<String> = list.iter().map(CudaOrdinal::to_string).collect();
                f.write_str(&text.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceSelection;
    use crate::error::Error;
    use crate::facts::CudaOrdinal;

    fn ordinals(list: &[usize]) -> Vec<CudaOrdinal> {
        list.iter().copied().map(CudaOrdinal).collect()
    }

    #[test]
    fn device_lists_parse_and_resolve_against_the_machine() {
        assert_eq!(
            DeviceSelection::parse("1").unwrap(),
            DeviceSelection::List(ordinals(&[1]))
        );
        assert_eq!(
            DeviceSelection::parse(" 0, 2").unwrap(),
            DeviceSelection::List(ordinals(&[0, 2]))
        );
        assert_eq!(
            DeviceSelection::parse("all").unwrap().resolve(3).unwrap(),
            ordinals(&[0, 1, 2])
        );
        assert_eq!(
            DeviceSelection::parse("2,0").unwrap().resolve(3).unwrap(),
            ordinals(&[2, 0])
        );
        let twice = DeviceSelection::parse("0,0").unwrap_err().to_string();
        assert!(twice.contains("twice"), "{twice}");
        assert!(DeviceSelection::parse("-1").is_err());
        assert!(DeviceSelection::parse("0,,1").is_err());
        assert!(matches!(
            DeviceSelection::parse("0,5").unwrap().resolve(2),
            Err(Error::DeviceIndex {
                requested: 5,
                available: 2
            })
        ));
        assert!(matches!(DeviceSelection::default().resolve(0), Err(Error::NoDevice)));
        assert_eq!(DeviceSelection::parse("0,2").unwrap().to_string(), "0,2");
    }
}
