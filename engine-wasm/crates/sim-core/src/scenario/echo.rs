//! What a message may echo of a user's input: at most 80 characters of a
//! value, control and bidirectional-formatting characters written as escapes
//! (a NUL or a U+202E RIGHT-TO-LEFT OVERRIDE in an id must not reach a
//! terminal raw, nor reorder the message around it), and a number of
//! hundreds of digits (`1e308` as Rust writes an f64) shortened to its
//! exponent form.

/// Longest run of digits echoed as written; a longer number is shown as `1e308`.
const MAX_DIGITS: usize = 24;

/// Whether `c` would act on a terminal or reorder text rather than show.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{feff}')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `s` with every hidden character written as `\u{…}`.
pub fn escape(s: &str) -> String {
    if !s.chars().any(is_hidden) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:04x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// At most 80 characters of `s` (then "…"), escaped, for echoing a user's
/// value in a message: a 64 KB id is named, not repeated.
pub fn clip(s: &str) -> String {
    let shown = if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    };
    escape(&shown)
}

/// A whole message made safe to print, line by line (its own line breaks
/// kept): hidden characters escaped and every number longer than
/// `MAX_DIGITS` characters shortened to exponent form.
pub fn tame(message: &str) -> String {
    message.split('\n').map(tame_line).collect::<Vec<_>>().join("\n")
}

fn tame_line(line: &str) -> String {
    let message = escape(line);
    let is_num = |c: char| c.is_ascii_digit() || c == '.';
    if message.chars().filter(|c| c.is_ascii_digit()).nth(MAX_DIGITS).is_none() {
        return message;
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(start) = rest.find(is_num) {
        out.push_str(&rest[..start]);
        let run = &rest[start..];
        let end = run.find(|c: char| !is_num(c)).unwrap_or(run.len());
        let number = &run[..end];
        match number.parse::<f64>() {
            Ok(x) if end > MAX_DIGITS => out.push_str(&format!("{x:e}")),
            _ => out.push_str(number),
        }
        rest = &run[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped() {
        assert_eq!(escape("vc\u{0}1\u{202e}x"), "vc\\u{0000}1\\u{202e}x");
        assert_eq!(escape("\u{1b}[2J"), "\\u{001b}[2J");
        assert_eq!(escape("vc1 — plain"), "vc1 — plain");
    }

    #[test]
    fn clip_keeps_80_characters() {
        assert_eq!(clip(&"é".repeat(100)), format!("{}…", "é".repeat(80)));
        assert_eq!(clip("short"), "short");
    }

    #[test]
    fn huge_numbers_are_shown_in_exponent_form() {
        let digits = format!("1{}", "0".repeat(308));
        assert_eq!(
            tame(&format!("{digits} ms is more than 600000")),
            "1e308 ms is more than 600000"
        );
        assert_eq!(tame(&format!("{}", 1e-300)), "1e-300");
        assert_eq!(tame("between 0.0001 and 10.5"), "between 0.0001 and 10.5");
        assert_eq!(tame("vcs[3].pcr: 2 is out of range"), "vcs[3].pcr: 2 is out of range");
        assert_eq!(tame("file.json:\nvcs.a\u{0}: bad"), "file.json:\nvcs.a\\u{0000}: bad");
    }
}
