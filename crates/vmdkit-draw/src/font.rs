//! Text: a system font found through fontconfig's `fc-list`/`fc-match` commands (no font file
//! ships with vmdkit), and the choice between Japanese bone names and English ones.

use crate::canvas::Canvas;
use crate::error::DrawError;
use crate::style::Rgb;
use ab_glyph::{point, Font as _, FontVec, PxScale, ScaleFont};
use std::path::{Path, PathBuf};
use std::process::Command;
use vmdkit::edit::{to_english, EnglishStyle};

/// Which script bone names are drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameScript {
    /// As the model spells them: the font has Japanese glyphs.
    Japanese,
    /// The standard dictionary's English names (`arm_L`): the font lacks Japanese glyphs.
    English,
}

/// A loaded font.
pub struct Font {
    font: FontVec,
    path: PathBuf,
    script: NameScript,
}

impl Font {
    /// Reads a TrueType/OpenType font file.
    pub fn from_file(path: &Path) -> Result<Font, DrawError> {
        let err = |reason: String| DrawError::Font { path: path.to_path_buf(), reason };
        let bytes = std::fs::read(path).map_err(|e| err(e.to_string()))?;
        let font = FontVec::try_from_vec(bytes).map_err(|e| err(e.to_string()))?;
        // 腕 (arm) stands for the kanji of bone names.
        let script =
            if font.glyph_id('腕').0 != 0 { NameScript::Japanese } else { NameScript::English };
        Ok(Font { font, path: path.to_path_buf(), script })
    }

    /// A system font: one with Japanese glyphs when fontconfig lists any, else its default
    /// sans-serif; `None` when fontconfig is not installed or finds no usable font.
    pub fn find_system() -> Option<Font> {
        let japanese = run(&["fc-list", ":lang=ja", "file"]);
        let mut candidates: Vec<String> = japanese
            .lines()
            .map(|l| l.trim().trim_end_matches(':').to_string())
            .filter(|l| !l.is_empty())
            .collect();
        candidates.sort(); // fc-list's order varies between runs
        candidates.push(run(&["fc-match", "-f", "%{file}", "sans-serif"]));
        candidates.iter().filter(|c| !c.is_empty()).find_map(|c| Font::from_file(Path::new(c)).ok())
    }

    /// The font file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Which script bone names are drawn in with this font.
    pub fn script(&self) -> NameScript {
        self.script
    }

    /// A bone or morph name as it will be drawn: itself when the font has every glyph, else
    /// the standard English name, else the name with the missing characters as `?`.
    pub fn display_name(&self, name: &str) -> String {
        if name.chars().all(|c| self.font.glyph_id(c).0 != 0 || c.is_whitespace()) {
            return name.to_string();
        }
        match to_english(name, EnglishStyle::Mmd) {
            Some(english) => english.to_string(),
            None => {
                name.chars().map(|c| if self.font.glyph_id(c).0 != 0 { c } else { '?' }).collect()
            }
        }
    }

    /// `text` with each space-separated word the font cannot draw replaced as
    /// [`Font::display_name`] does; [`Font::draw`] draws this.
    pub fn display_text(&self, text: &str) -> String {
        text.split(' ').map(|word| self.display_name(word)).collect::<Vec<_>>().join(" ")
    }

    /// The width of `text` at `size` pixels.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let text = self.display_text(text);
        let scaled = self.font.as_scaled(PxScale::from(size));
        text.chars().map(|c| scaled.h_advance(self.font.glyph_id(c))).sum()
    }

    /// Draws `text` with its top-left corner at (x, y), `size` pixels tall; words the font
    /// has no glyphs for are drawn as [`Font::display_name`] names them.
    pub fn draw(&self, canvas: &mut Canvas, text: &str, x: f32, y: f32, size: f32, colour: Rgb) {
        let text = self.display_text(text);
        let scale = PxScale::from(size);
        let scaled = self.font.as_scaled(scale);
        let baseline = y + scaled.ascent();
        let mut pen = x;
        for c in text.chars() {
            let id = self.font.glyph_id(c);
            let glyph = id.with_scale_and_position(scale, point(pen, baseline));
            pen += scaled.h_advance(id);
            if let Some(outlined) = self.font.outline_glyph(glyph) {
                let b = outlined.px_bounds();
                outlined.draw(|gx, gy, coverage| {
                    canvas.blend(
                        b.min.x as i32 + gx as i32,
                        b.min.y as i32 + gy as i32,
                        colour,
                        coverage,
                    );
                });
            }
        }
    }
}

/// A command's stdout, or nothing when it cannot run.
fn run(argv: &[&str]) -> String {
    Command::new(argv[0])
        .args(&argv[1..])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}
