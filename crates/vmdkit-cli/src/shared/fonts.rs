//! What the commands that draw names say of the font they found.

use vmdkit_draw::{Font, NameScript};

/// Says on stderr in which script names are drawn, and with which font.
pub fn say_script(font: Option<&Font>) {
    match font {
        Some(f) if f.script() == NameScript::Japanese => {
            say!("note: names in Japanese ({})", f.path().display())
        }
        Some(f) => say!(
            "note: names in English: no font with Japanese glyphs found ({} has no kanji; Debian's fonts-noto-cjk has them)",
            f.path().display()
        ),
        None => say!("note: no font found: tick numbers only, no names"),
    }
}
