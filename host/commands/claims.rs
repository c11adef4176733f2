use std::fmt::Write;

use serde::Serialize;

use crate::experiments::EXPERIMENTS;
use crate::report::{Claim, DIRECTION_RULE, FACTOR_RULE, UNDECIDED_RULE};

/// One graded claim as `claims --json` prints it.
#[derive(Serialize)]
struct ClaimRecord<'a> {
    id: &'a str,
    source: &'a str,
    claim: &'a str,
    rule: String,
    experiment: &'a str,
    reads: &'a str,
}

/// Every claim the experiments grade, in report order.
pub fn all_claims() -> Vec<Claim> {
    EXPERIMENTS.iter().flat_map(|e| e.claims()).collect()
}

/// `ptxsuite claims`: every claim of the documents the ledger grades, without
/// a GPU: its id, document and section, the claim in our words, the rule,
/// the experiment and the series it reads. `json` prints a JSON array instead.
pub fn claims(json: bool) -> String {
    let claims = all_claims();
    if json {
        let records: Vec<ClaimRecord<'_>> = claims
            .iter()
            .map(|c| ClaimRecord {
                id: c.id,
                source: c.source,
                claim: &c.claim,
                rule: c.rule.text(),
                experiment: c.experiment,
                reads: &c.reads,
            })
            .collect();
        return serde_json::to_string_pretty(&records).expect("claims always serialize") + "\n";
    }
    let mut out = String::new();
    let _ = writeln!(out, "{} graded claims of the source documents.\n", claims.len());
    for c in &claims {
        let _ = writeln!(out, "{}  ({}, `{}`)", c.id, c.source, c.experiment);
        let _ = writeln!(out, "    claim: {}", c.claim);
        let _ = writeln!(out, "    rule:  {}", c.rule.text());
        let _ = writeln!(out, "    reads: {}\n", c.reads);
    }
    let _ = writeln!(out, "Rules: {FACTOR_RULE}.\n{DIRECTION_RULE}.\n{UNDECIDED_RULE}.");
    out
}

#[cfg(test)]
mod tests {
    use super::{all_claims, claims};

    #[test]
    fn every_claim_has_a_unique_id_and_a_known_experiment() {
        let all = all_claims();
        assert!(all.len() >= 30, "{} claims", all.len());
        let mut ids: Vec<&str> = all.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len(), "duplicated claim ids");
        for c in &all {
            assert!(
                crate::experiments::find(c.experiment).is_some(),
                "{}: {}",
                c.id,
                c.experiment
            );
            assert!(
                !c.claim.is_empty() && !c.reads.is_empty() && !c.source.is_empty(),
                "{}",
                c.id
            );
        }
        let text = claims(false);
        assert!(
            text.contains("bpg-3.2.2.1-bank-conflicts") && text.contains("reads:"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&claims(true)).unwrap();
        assert_eq!(json.as_array().unwrap().len(), all.len());
    }
}
