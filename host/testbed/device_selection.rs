use std::fmt;

use crate::error::{Error, Result};

/// Which GPUs a run uses (`--device`): one index, a list (`0,2`) or `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSelection {
    List(Vec<usize>),
    All,
}

impl Default for DeviceSelection {
    fn default() -> Self {
        Self::List(vec![0])
    }
}

impl DeviceSelection {
    /// Parses `--device`: an index, a comma-separated list of distinct indices, or `all`.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        if text == "all" {
            return Ok(Self::All);
        }
        let mut list: Vec<usize> = Vec::new();
        for part in text.split(',').map(str::trim) {
            let index: usize = part.parse().map_err(|_| {
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

    /// The device ordinals on a machine with `available` GPUs; an index past
    /// them is an error before any GPU is opened.
    pub fn resolve(&self, available: usize) -> Result<Vec<usize>> {
        if available == 0 {
            return Err(Error::NoDevice);
        }
        match self {
            Self::All => Ok((0..available).collect()),
            Self::List(list) => {
                if let Some(&bad) = list.iter().find(|&&i| i >= available) {
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
                let text: Vec<String> = list.iter().map(usize::to_string).collect();
                f.write_str(&text.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceSelection;
    use crate::error::Error;

    #[test]
    fn device_lists_parse_and_resolve_against_the_machine() {
        assert_eq!(DeviceSelection::parse("1").unwrap(), DeviceSelection::List(vec![1]));
        assert_eq!(
            DeviceSelection::parse(" 0, 2").unwrap(),
            DeviceSelection::List(vec![0, 2])
        );
        assert_eq!(DeviceSelection::parse("all").unwrap().resolve(3).unwrap(), [0, 1, 2]);
        assert_eq!(DeviceSelection::parse("2,0").unwrap().resolve(3).unwrap(), [2, 0]);
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
