//! Text for a person on stdout, with the control characters that names from files may hold
//! escaped: a bone named `\x1b]0;pwned\x07\x1b[2J` must not retitle or clear the terminal.
//! Stderr lines go through `say!`; JSON output is left to serde, which escapes what JSON must
//! (and stays exact).

use std::io::{self, Write};

/// A writer that passes whole lines on through `vmdkit::shown::escape_controls`, line breaks
/// and tabs kept. A line is held until its end (or a flush), so that a character written in
/// two pieces is escaped as one.
pub struct Escaping<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Escaping<W> {
    /// Escapes what is written before it reaches `inner`.
    pub fn new(inner: W) -> Self {
        Escaping { inner, pending: Vec::new() }
    }

    /// Writes the held bytes up to `end`, escaped.
    fn pass_on(&mut self, end: usize) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.pending[..end]);
        self.inner.write_all(vmdkit::shown::escape_controls(&text).as_bytes())?;
        self.pending.drain(..end);
        Ok(())
    }
}

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.pass_on(last + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_on(self.pending.len())?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Escaping<W> {
    fn drop(&mut self) {
        // A last line without its line break; its error, if any, was the command's to see.
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_across_writes() {
        let mut out = Vec::new();
        {
            let mut escaping = Escaping::new(&mut out);
            write!(escaping, "bone \x1b]0;").unwrap();
            write!(escaping, "pwned\x07\n  センター\t1\nlast").unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "bone \\u{1b}]0;pwned\\u{7}\n  センター\t1\nlast"
        );
    }
}
