//! Texts read from a report, escaped for where they are written: Markdown
//! (prose and table cells), SVG (XML) and the terminal. A report's free texts
//! (titles, notes, reasons, host and GPU names) may hold anything JSON can;
//! what the format would read as structure (a cell's `|`, a line break, raw
//! HTML) or cannot hold at all (NUL and the other control characters in
//! XML, escape sequences on a terminal) never reaches the file as such.
//!
//! Markdown's own emphasis and code spans are left alone: the experiments
//! write them into their notes on purpose.

use std::borrow::Cow;

/// Shown in place of a character the format cannot hold.
const REPLACEMENT: char = '\u{fffd}';

/// The Unicode direction overrides and isolates, which reorder what a reader sees.
fn direction_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Text for a line of Markdown or a table cell: line breaks and tabs become spaces, other
/// control characters U+FFFD; `|` and `\` are escaped (a cell ends at an unescaped `|`),
/// `<` and `>` become entities (no raw HTML).
pub fn markdown(text: &str) -> Cow<'_, str> {
    let special = |c: char| c.is_control() || direction_control(c) || matches!(c, '|' | '\\' | '<' | '>');
    if !text.chars().any(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_control() || direction_control(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` as a Markdown code span, safe in a table cell (a backtick inside widens the fence).
pub fn markdown_code(text: &str) -> String {
    let mut body = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => body.push_str("\\|"),
            '\n' | '\r' | '\t' => body.push(' '),
            c if c.is_control() || direction_control(c) => body.push(REPLACEMENT),
            c => body.push(c),
        }
    }
    if body.contains('`') {
        format!("`` {body} ``")
    } else {
        format!("`{body}`")
    }
}

/// Text for SVG (XML 1.0) content or attributes: `& < > " '` as entities, white space as
/// spaces, and characters XML cannot hold (NUL, other controls, U+FFFE, U+FFFF) as U+FFFD.
pub fn xml(text: &str) -> Cow<'_, str> {
    let special = |c: char| {
        c.is_control() || direction_control(c) || matches!(c, '&' | '<' | '>' | '"' | '\'' | '\u{fffe}' | '\u{ffff}')
    };
    if !text.chars().any(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() || direction_control(c) || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                out.push(REPLACEMENT)
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text for one terminal line: control characters (escape sequences among them) as U+FFFD,
/// line breaks as spaces.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || direction_control(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\n' | '\r' | '\t' => ' ',
                c if c.is_control() || direction_control(c) => REPLACEMENT,
                c => c,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::{markdown, markdown_code, terminal, xml};

    #[test]
    fn markdown_keeps_a_cell_one_cell_and_one_line() {
        assert_eq!(markdown("offset_copy · Rust"), "offset_copy · Rust");
        assert_eq!(markdown("a|b\nc\\|"), "a\\|b c\\\\\\|");
        assert_eq!(markdown("<img src=x>"), "&lt;img src=x&gt;");
        assert_eq!(markdown("nul\0 esc\u{1b}[31m"), "nul\u{fffd} esc\u{fffd}[31m");
        assert_eq!(markdown_code("a`b|c"), "`` a`b\\|c ``");
        assert_eq!(markdown_code("vector_copy"), "`vector_copy`");
    }

    #[test]
    fn xml_holds_only_characters_xml_allows() {
        assert_eq!(
            xml("A & B <c> \"d\" 'e'"),
            "A &amp; B &lt;c&gt; &quot;d&quot; &#39;e&#39;"
        );
        assert_eq!(xml("x\0y\u{7}z\u{ffff}"), "x\u{fffd}y\u{fffd}z\u{fffd}");
        assert_eq!(xml("line\nbreak"), "line break");
    }

    #[test]
    fn terminal_lines_carry_no_escape_sequences() {
        assert_eq!(terminal("host\u{1b}]0;owned\u{7}"), "host\u{fffd}]0;owned\u{fffd}");
        assert_eq!(terminal("plain"), "plain");
    }
}
