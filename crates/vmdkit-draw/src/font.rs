//! Text: a system font found with `fontdb` (no font file ships with vmdkit), and the names
//! drawn with it: Japanese when the font has the glyphs, else English, never `?`.

use crate::canvas::Canvas;
use crate::error::DrawError;
use crate::style::Rgb;
use ab_glyph::{point, Font as _, FontRef, FontVec, PxScale, ScaleFont};
use std::path::{Path, PathBuf};
use vmdkit::names::{to_english, EnglishStyle};

/// Which script bone names are drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameScript {
    /// As the model spells them: the font has Japanese glyphs.
    Japanese,
    /// English names (the model's own, else the standard dictionary's `arm_L`): the font lacks
    /// Japanese glyphs.
    English,
}

/// A loaded font.
pub struct Font {
    font: FontVec,
    path: PathBuf,
    script: NameScript,
}

/// How a system face ranks, smaller first: lacks Japanese, not sans-serif, not normal width,
/// distance from weight 400.
type Rank = (bool, bool, bool, u16);

/// 腕 (arm) stands for the kanji of bone names.
const KANJI_PROBE: char = '腕';

impl Font {
    /// Reads a TrueType/OpenType font file (the first font of a collection).
    pub fn from_file(path: &Path) -> Result<Font, DrawError> {
        Font::from_collection(path, 0)
    }

    /// Reads font `index` of a TrueType/OpenType file or collection (.ttc).
    pub fn from_collection(path: &Path, index: u32) -> Result<Font, DrawError> {
        let err = |reason: String| DrawError::Font { path: path.to_path_buf(), reason };
        let bytes = std::fs::read(path).map_err(|e| err(e.to_string()))?;
        let font = FontVec::try_from_vec_and_index(bytes, index).map_err(|e| err(e.to_string()))?;
        let script = if font.glyph_id(KANJI_PROBE).0 != 0 {
            NameScript::Japanese
        } else {
            NameScript::English
        };
        Ok(Font { font, path: path.to_path_buf(), script })
    }

    /// A system font, found with `fontdb` in the folders fontconfig's configuration names: a
    /// regular sans-serif face with Japanese glyphs when there is one (Debian's
    /// `fonts-noto-cjk`, `fonts-ipafont-gothic`...), else a regular sans-serif Latin face;
    /// `None` when the system has no usable font. The choice does not depend on the order
    /// the folders are read in.
    pub fn find_system() -> Option<Font> {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        let mut ranked: Vec<(Rank, PathBuf, u32)> = db
            .faces()
            .filter(|face| face.style == fontdb::Style::Normal)
            .filter_map(|face| {
                let path = match &face.source {
                    fontdb::Source::File(p) | fontdb::Source::SharedFile(p, _) => p.clone(),
                    fontdb::Source::Binary(_) => return None,
                };
                let (latin, japanese) = db
                    .with_face_data(face.id, |data, index| {
                        let f = FontRef::try_from_slice_and_index(data, index).ok()?;
                        let has = |c: char| f.glyph_id(c).0 != 0;
                        Some((has('a') && has('0'), has(KANJI_PROBE)))
                    })
                    .flatten()?;
                let family = face.families.first().map_or(String::new(), |f| f.0.to_lowercase());
                let sans = (family.contains("sans") || family.contains("gothic"))
                    && !family.contains("mono");
                // Smaller is better: Japanese, sans-serif, normal width, weight nearest 400.
                let key = (
                    !japanese,
                    !sans,
                    face.stretch != fontdb::Stretch::Normal,
                    face.weight.0.abs_diff(400),
                );
                latin.then_some((key, path, face.index))
            })
            .collect();
        ranked.sort();
        ranked.iter().find_map(|(_, path, index)| Font::from_collection(path, *index).ok())
    }

    /// The font file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Which script bone names are drawn in with this font.
    pub fn script(&self) -> NameScript {
        self.script
    }

    /// Whether the font has a glyph for every character of `text` but spaces.
    pub fn can_draw(&self, text: &str) -> bool {
        text.chars().all(|c| c.is_whitespace() || self.font.glyph_id(c).0 != 0)
    }

    /// A bone or morph name as it will be drawn: itself when the font has every glyph, else
    /// the standard dictionary's English name, else the name with each character the font
    /// lacks written as its code point (`U+9AEA`): readable, and never a `?`.
    pub fn display_name(&self, name: &str) -> String {
        if self.can_draw(name) {
            return name.to_string();
        }
        if let Some(english) = to_english(name, EnglishStyle::Mmd) {
            return english.to_string();
        }
        let mut out = String::new();
        for c in name.chars() {
            if self.font.glyph_id(c).0 != 0 {
                out.push(c);
            } else {
                out.push_str(&format!("U+{:04X}", u32::from(c)));
            }
        }
        out
    }

    /// The label of a model's bone: its name when the font can draw it, else the model's own
    /// English name, else the dictionary's, else `bone N` (its index in the model).
    pub fn bone_label(&self, name: &str, english: &str, index: usize) -> String {
        if self.can_draw(name) {
            name.to_string()
        } else if !english.trim().is_empty() && self.can_draw(english) {
            english.trim().to_string()
        } else if let Some(english) = to_english(name, EnglishStyle::Mmd) {
            english.to_string()
        } else {
            format!("bone {index}")
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

    /// The height of a line of text at `size` pixels, ascent to descent.
    pub fn line_height(&self, size: f32) -> f32 {
        let scaled = self.font.as_scaled(PxScale::from(size));
        scaled.ascent() - scaled.descent()
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
