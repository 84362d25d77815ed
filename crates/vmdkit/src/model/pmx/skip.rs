//! The sections read only to check their layout: each record walked, nothing kept.

use super::header::Globals;
use crate::model::error::{ModelErrorKind, ModelSection};
use crate::model::reader::{Reader, Result};

pub(super) fn skip_vertices(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::Vertices);
    let fixed = 32 + 16 * g.additional_uvs; // position, normal, uv, additional UVs
    let count = r.count_i32(fixed + 1 + g.bone as usize + 4)?;
    let b = g.bone as usize;
    for i in 0..count {
        r.record(Some(i));
        r.skip(fixed)?;
        let at = r.pos();
        let weights = match r.u8()? {
            0 => b,              // BDEF1
            1 => 2 * b + 4,      // BDEF2
            2 | 4 => 4 * b + 16, // BDEF4, QDEF (2.1)
            3 => 2 * b + 4 + 36, // SDEF: C, R0, R1
            value => {
                return Err(
                    r.error_at(ModelErrorKind::UnknownKind { what: "weight type", value }, at)
                )
            }
        };
        r.skip(weights + 4)?; // weights, edge scale
    }
    Ok(count)
}

pub(super) fn skip_materials(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::Materials);
    let t = g.texture as usize;
    // colours (diffuse 16, specular 12, power 4, ambient 12), flags, edge (16 + 4), texture
    // and sphere indices, sphere mode, toon mode + at least 1 byte, memo, face count.
    skip_named_records(r, 44 + 1 + 20 + 2 * t + 2 + 1 + 4 + 4, |r| {
        r.skip(44 + 1 + 20 + 2 * t + 1)?;
        skip_toon(r, g)?;
        r.text_bytes()?;
        r.skip(4)
    })
}

/// A material's toon: its mode byte, then a texture index (mode 0) or a shared toon's number
/// (mode 1).
pub(in crate::model) fn skip_toon(r: &mut Reader, g: &Globals) -> Result<()> {
    let at = r.pos();
    match r.u8()? {
        0 => r.skip(g.texture as usize),
        1 => r.skip(1),
        value => Err(r.error_at(ModelErrorKind::UnknownKind { what: "toon mode", value }, at)),
    }
}

/// Walks a section of `i32` count records that each start with a name and an English name;
/// `rest` walks the remainder of one record, which takes at least `min_rest` bytes.
fn skip_named_records(
    r: &mut Reader,
    min_rest: usize,
    mut rest: impl FnMut(&mut Reader) -> Result<()>,
) -> Result<usize> {
    let count = r.count_i32(8 + min_rest)?;
    for i in 0..count {
        r.record(Some(i));
        r.text_bytes()?;
        r.text_bytes()?;
        rest(r)?;
    }
    Ok(count)
}

pub(super) fn skip_display_frames(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::DisplayFrames);
    skip_named_records(r, 1 + 4, |r| {
        r.skip(1)?; // special frame flag
        let elements = r.count_i32(2)?;
        for _ in 0..elements {
            let at = r.pos();
            match r.u8()? {
                0 => r.skip(g.bone as usize)?,
                1 => r.skip(g.morph as usize)?,
                value => {
                    return Err(r.error_at(
                        ModelErrorKind::UnknownKind { what: "display element type", value },
                        at,
                    ))
                }
            }
        }
        Ok(())
    })
}

pub(super) fn skip_soft_bodies(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::SoftBodies);
    // shape, material, group, mask, flags, B-link distance, clusters, mass, margin, aero model,
    // 12 config floats, 6 cluster floats, 4 iteration ints, 3 material floats
    let body = 1 + g.material as usize + 1 + 2 + 1 + 4 * 5 + 4 * (12 + 6 + 4 + 3);
    let (rb, v) = (g.rigid_body as usize, g.vertex as usize);
    // the body, then the anchor and pin counts
    skip_named_records(r, body + 8, |r| {
        r.skip(body)?;
        let anchors = r.count_i32(rb + v + 1)?;
        r.skip(anchors * (rb + v + 1))?;
        let pins = r.count_i32(v)?;
        r.skip(pins * v)
    })
}
