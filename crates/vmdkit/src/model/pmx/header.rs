//! The header's globals (index widths, text encoding) and the text fields they govern.

use crate::model::error::ModelErrorKind;
use crate::model::reader::{Reader, Result};

/// The header's index widths and text encoding.
pub(in crate::model) struct Globals {
    pub(in crate::model) utf8: bool,
    pub(in crate::model) additional_uvs: usize,
    pub(in crate::model) vertex: u8,
    pub(in crate::model) texture: u8,
    pub(in crate::model) material: u8,
    pub(in crate::model) bone: u8,
    pub(in crate::model) morph: u8,
    pub(super) rigid_body: u8,
}

pub(in crate::model) fn read_globals(r: &mut Reader) -> Result<Globals> {
    let count_at = r.pos();
    let count = r.u8()?;
    if count < 8 {
        return Err(r.error_at(
            ModelErrorKind::BadHeaderField { field: "globals count", value: count },
            count_at,
        ));
    }
    let at = r.pos();
    let raw = r.take(count as usize)?;
    let bad = |field: &'static str, i: usize| {
        Err(r.error_at(ModelErrorKind::BadHeaderField { field, value: raw[i] }, at + i))
    };
    if raw[0] > 1 {
        return bad("text encoding", 0);
    }
    if raw[1] > 4 {
        return bad("additional UV count", 1);
    }
    const NAMES: [&str; 6] = [
        "vertex index size",
        "texture index size",
        "material index size",
        "bone index size",
        "morph index size",
        "rigid body index size",
    ];
    for (i, field) in NAMES.into_iter().enumerate() {
        if !matches!(raw[2 + i], 1 | 2 | 4) {
            return bad(field, 2 + i);
        }
    }
    Ok(Globals {
        utf8: raw[0] == 1,
        additional_uvs: raw[1] as usize,
        vertex: raw[2],
        texture: raw[3],
        material: raw[4],
        bone: raw[5],
        morph: raw[6],
        rigid_body: raw[7],
    })
}

/// A text field, decoded lossily: MMD shows a broken name rather than refusing the model.
pub(in crate::model) fn text(r: &mut Reader, g: &Globals) -> Result<String> {
    let bytes = r.text_bytes()?;
    if g.utf8 {
        return Ok(String::from_utf8_lossy(bytes).into_owned());
    }
    let units = bytes.chunks_exact(2).map(|u| u16::from_le_bytes([u[0], u[1]]));
    let mut text: String =
        char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    if bytes.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER); // half a code unit
    }
    Ok(text)
}
