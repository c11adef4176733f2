//! `ptxsuite selftest`: every kernel and every host path once, at small
//! sizes, checked against the host references. Quick enough to run under
//! `compute-sanitizer` (memcheck, racecheck, synccheck, initcheck).
//!
//! A check is a function of the [`Testbed`] in [`SELF_TESTS`]: `Ok` passes, an
//! [`Error::Waived`] is a waiver (no NVRTC, no cuBLAS, no mapped memory, one
//! GPU only) and any other error or a panic fails. Add a check by adding a row
//! to its family's list beside it (`SELF_TESTS`, or the family's list in
//! `checks.rs`).

mod checks;
mod counter_checks;
mod cuda_std_checks;
mod execution_checks;
mod matmul_checks;
mod memory_claims_checks;
mod particle_checks;
mod peer_checks;
mod reduction_checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

pub use counter_checks::{CounterRun, CounterWorkload, counter_runs};

use crate::error::{Error, Result};
use crate::testbed::Testbed;

/// One self-test check.
#[derive(Clone, Copy)]
pub struct SelfTest {
    pub name: &'static str,
    pub run: fn(&Testbed) -> Result<()>,
}

/// Every family's checks, in the order `ptxsuite selftest` runs them: each
/// family lists its rows beside its checks; a new family adds one line here.
const FAMILIES: [&[SelfTest]; 13] = [
    checks::TWIN_BUILDS,
    checks::COPIES,
    cuda_std_checks::SELF_TESTS,
    checks::MATRIX_VECTOR,
    reduction_checks::SELF_TESTS,
    matmul_checks::SELF_TESTS,
    checks::TRANSFERS,
    execution_checks::SELF_TESTS,
    particle_checks::SELF_TESTS,
    peer_checks::SELF_TESTS,
    checks::DIAGNOSTICS,
    memory_claims_checks::SELF_TESTS,
    counter_checks::SELF_TESTS,
];

/// Every check `ptxsuite selftest` runs, in order.
pub const SELF_TESTS: &[SelfTest] = &joined::<{ check_count(&FAMILIES) }>(&FAMILIES);

/// How many checks `families` hold.
const fn check_count(families: &[&[SelfTest]]) -> usize {
    let (mut count, mut family) = (0, 0);
    while family < families.len() {
        count += families[family].len();
        family += 1;
    }
    count
}

/// The `N` checks of `families`, one family after another (evaluated at compile time).
const fn joined<const N: usize>(families: &[&[SelfTest]]) -> [SelfTest; N] {
    let mut all = [families[0][0]; N];
    let (mut next, mut family) = (0, 0);
    while family < families.len() {
        let mut row = 0;
        while row < families[family].len() {
            all[next] = families[family][row];
            next += 1;
            row += 1;
        }
        family += 1;
    }
    all
}

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    Failed,
    Waived,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "FAILED",
            Status::Waived => "waived",
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

/// Runs `tests` one after another; a failing or panicking check does not stop the others.
pub fn run_all(testbed: &Testbed, tests: &[SelfTest]) -> Vec<Outcome> {
    tests
        .iter()
        .map(|test| {
            let start = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| (test.run)(testbed)));
            let (status, detail) = match result {
                Ok(Ok(())) => (Status::Ok, format!("{:.0} ms", start.elapsed().as_secs_f64() * 1e3)),
                Ok(Err(Error::Waived(why))) => (Status::Waived, why),
                Ok(Err(error)) => (Status::Failed, error.to_string()),
                Err(panic) => (Status::Failed, format!("panicked: {}", panic_text(&panic))),
            };
            Outcome {
                name: test.name,
                status,
                detail,
            }
        })
        .collect()
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// The pass/fail table: name, status, detail; then a count line.
pub fn table(outcomes: &[Outcome]) -> String {
    let width = outcomes
        .iter()
        .map(|o| o.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!("{:<width$}  {:<7}  detail\n", "check", "status");
    for o in outcomes {
        out.push_str(&format!("{:<width$}  {:<7}  {}\n", o.name, o.status.label(), o.detail));
    }
    let count = |s: Status| outcomes.iter().filter(|o| o.status == s).count();
    out.push_str(&format!(
        "selftest: {} ok, {} FAILED, {} waived\n",
        count(Status::Ok),
        count(Status::Failed),
        count(Status::Waived)
    ));
    out
}
