use crate::error::{Error, Result};
use crate::facts::Implementation;

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
    use super::ImplementationSet;
    use crate::facts::Implementation;

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
}
