//! Values taken from a file, as a message shows them to a person.
//!
//! A file may hold anything: a bone named `\x1b]0;pwned\x07` that would set a terminal's title,
//! a 10 MB model name, an NPZ with 60,000 members. Every message that echoes such a value shows
//! it through [`Shown`] (control characters escaped, cut at [`SHOWN_CHARS`] characters with the
//! full length stated) or [`ShownList`] (at most a few names). JSON output is not made from
//! these: serde escapes control characters and keeps values whole.

use std::borrow::Cow;
use std::fmt::{self, Display, Write};

/// How many characters of one value a message shows before cutting it.
pub const SHOWN_CHARS: usize = 80;

/// How many names a [`ShownList`] shows by default before saying how many more there are.
pub const SHOWN_NAMES: usize = 8;

/// A value from a file as a message shows it: control characters escaped as Rust writes them
/// (`\u{1b}`, `\n`, `\t`), then cut after [`SHOWN_CHARS`] characters with "… (N characters)".
/// `{:?}` shows the same between double quotes, where a message used to quote with `{:?}`.
#[derive(Clone, Copy)]
pub struct Shown<'a>(pub &'a str);

/// Shows `text` as [`Shown`] does.
pub fn shown(text: &str) -> Shown<'_> {
    Shown(text)
}

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(SHOWN_CHARS) {
            write_char(f, c, false)?;
        }
        if chars.next().is_some() {
            write!(f, "… ({} characters)", self.0.chars().count())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Whether `c` would steer a terminal or reorder the text around it: C0 and C1 controls, DEL,
/// and the Unicode bidirectional controls (which can make a name read as something else).
pub fn is_steering(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}')
        || matches!(c, '\u{2066}'..='\u{2069}')
}

/// Writes `c`, escaped if it steers a terminal; line breaks and tabs kept when `keep_layout`.
fn write_char(out: &mut impl Write, c: char, keep_layout: bool) -> fmt::Result {
    if !is_steering(c) || (keep_layout && matches!(c, '\n' | '\t')) {
        return out.write_char(c);
    }
    // `escape_default` writes `\n`, `\t`, `\r` and `\u{1b}`; it is only used for characters
    // that are escaped, since it would also escape every non-ASCII letter.
    write!(out, "{}", c.escape_default())
}

/// A whole message with control characters escaped, its line breaks and tabs kept: what a
/// front end prints for a person when it cannot know which parts came from a file. Values are
/// cut where they are put into the message ([`Shown`]); this is the last guard.
pub fn escape_controls(message: &str) -> Cow<'_, str> {
    if !message.chars().any(|c| is_steering(c) && !matches!(c, '\n' | '\t')) {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len() + 8);
    for c in message.chars() {
        // Writing to a String cannot fail.
        let _ = write_char(&mut out, c, true);
    }
    Cow::Owned(out)
}

/// Names from a file as a message lists them: at most `max`, each [`Shown`], separated by ", ",
/// then " and N more".
#[derive(Clone, Copy, Debug)]
pub struct ShownList<'a, S> {
    names: &'a [S],
    max: usize,
}

/// Lists at most [`SHOWN_NAMES`] of `names` (see [`ShownList`]).
pub fn shown_list<S: AsRef<str>>(names: &[S]) -> ShownList<'_, S> {
    ShownList { names, max: SHOWN_NAMES }
}

impl<'a, S> ShownList<'a, S> {
    /// The same list showing at most `max` names.
    pub fn at_most(self, max: usize) -> Self {
        ShownList { max, ..self }
    }
}

impl<S: AsRef<str>> Display for ShownList<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names.iter().take(self.max).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            Shown(name.as_ref()).fmt(f)?;
        }
        if self.names.len() > self.max {
            write!(f, " and {} more", self.names.len() - self.max)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        let name = "\x1b]0;pwned\x07\x1b[2J";
        assert_eq!(shown(name).to_string(), r"\u{1b}]0;pwned\u{7}\u{1b}[2J");
        assert_eq!(shown("a\nb\tc\u{9b}d\u{202e}").to_string(), r"a\nb\tc\u{9b}d\u{202e}");
        // Letters of every script stay as they are.
        assert_eq!(shown("センター").to_string(), "センター");
        assert_eq!(format!("{:?}", shown("\x07")), r#""\u{7}""#);
    }

    #[test]
    fn long_values_are_cut_with_their_length() {
        let long = "7".repeat(100_000);
        let text = shown(&long).to_string();
        assert_eq!(text, format!("{}… (100000 characters)", "7".repeat(SHOWN_CHARS)));
        let exact = "x".repeat(SHOWN_CHARS);
        assert_eq!(shown(&exact).to_string(), exact);
        // Characters, not bytes: a cut never splits one.
        let kana = "ア".repeat(SHOWN_CHARS + 1);
        assert!(shown(&kana).to_string().ends_with("… (81 characters)"));
    }

    #[test]
    fn whole_messages_keep_their_lines() {
        assert_eq!(escape_controls("a: b\n  c"), "a: b\n  c");
        assert_eq!(escape_controls("bone \x1b[2J\n"), "bone \\u{1b}[2J\n");
    }

    #[test]
    fn lists_show_a_few_names() {
        let names: Vec<String> = (0..60_000).map(|i| format!("m{i}")).collect();
        let text = shown_list(&names).to_string();
        assert_eq!(text, "m0, m1, m2, m3, m4, m5, m6, m7 and 59992 more");
        assert_eq!(shown_list(&["a", "b"]).to_string(), "a, b");
        assert_eq!(shown_list(&["\x07"]).at_most(0).to_string(), " and 1 more");
    }
}
