//! The last guard between a figure and a reader: a sentence that would show a
//! figure Rust formats from NaN or infinity ("NaN", "inf", "inf%", "infx")
//! is left out, and such a cell of a table shows "—" instead. Every text an
//! experiment writes (narratives, tables, headlines, ledger cells) passes
//! here, so no future sentence can print one either.
//!
//! A loaded report holds no such figure (see `validation`), but sentences
//! divide figures: 0 / 0 and x / 0 are what this catches.

/// Whether a word is what `format!` writes for NaN or an infinity (with a unit glued on).
fn nonfinite_word(word: &str) -> bool {
    matches!(word, "NaN" | "inf" | "infx" | "NaNx")
}

/// Whether `text` shows a non-finite figure.
pub fn has_nonfinite(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(nonfinite_word)
}

/// `paragraph` without its sentences that show a non-finite figure; `None` when none is left.
pub fn finite_sentences(paragraph: &str) -> Option<String> {
    if !has_nonfinite(paragraph) {
        return Some(paragraph.to_string());
    }
    let kept: Vec<&str> = paragraph
        .split_inclusive(". ")
        .filter(|sentence| !has_nonfinite(sentence))
        .collect();
    let text = kept.concat().trim_end().to_string();
    (!text.is_empty()).then_some(text)
}

/// `text` (tables, one-line cells) with every non-finite figure replaced by "—".
pub fn finite_cells(text: &str) -> String {
    if !has_nonfinite(text) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for c in text.chars().map(Some).chain([None]) {
        match c {
            Some(c) if c.is_alphanumeric() => word.push(c),
            _ => {
                if nonfinite_word(&word) {
                    // "-inf" loses its sign with its figure.
                    if out.ends_with('-') {
                        out.pop();
                    }
                    out.push('—');
                } else {
                    out.push_str(&word);
                }
                word.clear();
                out.extend(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{finite_cells, finite_sentences, has_nonfinite};

    #[test]
    fn sentences_with_nan_or_infinity_are_left_out() {
        let text = format!(
            "The copy engine moves 397 GB/s. Pull wins by {:.1}%. Both at once: {:.2}x one way.",
            f64::NAN,
            f64::INFINITY
        );
        assert_eq!(finite_sentences(&text).unwrap(), "The copy engine moves 397 GB/s.");
        assert_eq!(finite_sentences(&format!("{}", f64::NAN)), None);
        assert!(!has_nonfinite("information: infinite loops, Nancy"));
        assert!(has_nonfinite("ratio infx"));
    }

    #[test]
    fn cells_show_a_dash_instead() {
        let row = format!("| a | {:.1} | {:.3} | {} |", f64::NAN, f64::INFINITY, -f64::INFINITY);
        assert_eq!(finite_cells(&row), "| a | — | — | — |");
        assert_eq!(finite_cells("| 3.5 | 1e-3 |"), "| 3.5 | 1e-3 |");
    }
}
