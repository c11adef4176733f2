use serde::{Deserialize, Serialize};

/// How an experiment, or one point of it, ended.
///
/// Only [`Status::Failed`] makes `ptxsuite run` exit non-zero: a waived
/// experiment is one this machine cannot run (no second GPU, no OpenCL, no
/// mapped memory), and one not run was stopped (Ctrl-C, an earlier error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", content = "reason", rename_all = "kebab-case")]
pub enum Status {
    Ok,
    /// A check failed or the run broke: no figure is shown for it.
    Failed(String),
    /// The machine lacks what it needs; the reason says what.
    Waived(String),
    /// Stopped before it ran, or before it finished (what was measured is kept).
    NotRun(String),
}

impl Status {
    pub fn is_ok(&self) -> bool {
        matches!(self, Self::Ok)
    }

    pub fn is_failed(&self) -> bool {
        matches!(self, Self::Failed(_))
    }

    /// `ok`, `FAILED`, `waived`, `not run`.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Failed(_) => "FAILED",
            Self::Waived(_) => "waived",
            Self::NotRun(_) => "not run",
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Ok => None,
            Self::Failed(r) | Self::Waived(r) | Self::NotRun(r) => Some(r),
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.reason() {
            Some(reason) => write!(f, "{}: {reason}", self.label()),
            None => f.write_str(self.label()),
        }
    }
}
