//! PmxEditor's bone-table CSV export (`;Bone,ボーン名,...` and `;IKLink,...` rows) read as a
//! bone-only [`Model`].
//!
//! Rows are read first and bone names resolved afterwards, because a row may name a bone that
//! a later row defines (IK targets and tails usually point down the chain). Fields that the
//! row's own flags say are unused (a fixed axis with the axis flag off, IK columns of a non-IK
//! bone) are not parsed: the editor writes placeholders there, and a hand edit that leaves
//! them odd does not change the model.

use super::error::{CsvProblem, ModelError, ModelErrorKind, ModelSection};
use super::types::{key_name, Append, Bone, BoneFlags, Ik, IkLink, Model, ModelFormat, Tail};
use glam::Vec3;
use std::borrow::Cow;
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ModelError>;

/// The `Bone` row's columns, as the export's `;Bone` header lists them, named for messages.
const BONE_COLUMNS: [&str; 40] = [
    "row kind",
    "name",
    "English name",
    "deform layer",
    "after physics",
    "position x",
    "position y",
    "position z",
    "rotatable",
    "movable",
    "IK",
    "visible",
    "controllable",
    "parent name",
    "tail kind",
    "tail bone name",
    "tail offset x",
    "tail offset y",
    "tail offset z",
    "local append",
    "rotation append",
    "translation append",
    "append ratio",
    "append parent name",
    "fixed axis",
    "fixed axis x",
    "fixed axis y",
    "fixed axis z",
    "local axes",
    "local X axis x",
    "local X axis y",
    "local X axis z",
    "local Z axis x",
    "local Z axis y",
    "local Z axis z",
    "external parent",
    "external parent key",
    "IK target name",
    "IK loop count",
    "IK unit angle",
];

/// The `IKLink` row's columns.
const LINK_COLUMNS: [&str; 10] = [
    "row kind",
    "IK bone name",
    "link bone name",
    "angle limit",
    "limit min x",
    "limit max x",
    "limit min y",
    "limit max y",
    "limit min z",
    "limit max z",
];

/// Reads a bone CSV's bytes: UTF-8, or Shift-JIS, which older exports and Japanese Windows
/// tools write; a file valid as both is read as UTF-8, the likelier of the two.
pub(crate) fn parse_bytes(data: &[u8]) -> Result<Model> {
    match std::str::from_utf8(data) {
        Ok(text) => parse(text),
        Err(not_utf8) => {
            match encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(data) {
                Some(text) => parse(&text).map_err(|mut e| {
                    e.offset = shift_jis_offset(data, &text, e.offset as usize) as u64;
                    e
                }),
                None => Err(ModelError {
                    kind: ModelErrorKind::CsvNotText,
                    section: ModelSection::Header,
                    record: None,
                    offset: not_utf8.valid_up_to() as u64,
                }),
            }
        }
    }
}

/// Where the character at `utf8_offset` of `text`, the decoding of the valid Shift-JIS `data`,
/// starts in `data`: the reader's offsets count bytes of the text, which in UTF-8 takes up to
/// half as many again as in Shift-JIS (3 bytes for 2), so they could point past the file's end.
/// Each character comes from a lead byte and its trail byte, or from one byte.
fn shift_jis_offset(data: &[u8], text: &str, utf8_offset: usize) -> usize {
    let chars = text.char_indices().take_while(|&(i, _)| i < utf8_offset).count();
    let mut pos = 0;
    for _ in 0..chars {
        let lead = matches!(data.get(pos), Some(0x81..=0x9F | 0xE0..=0xFC));
        pos += if lead { 2 } else { 1 };
    }
    pos.min(data.len())
}

/// One field, unquoted, with the byte offset where it starts in the text.
struct Field<'a> {
    text: Cow<'a, str>,
    offset: usize,
}

/// One CSV record, which a quoted field may spread over several lines.
struct Row<'a> {
    /// The line the row starts on, from 1.
    line: usize,
    fields: Vec<Field<'a>>,
}

/// The end of an unquoted field: the next comma or newline.
fn field_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..].iter().position(|&b| b == b',' || b == b'\n').map_or(bytes.len(), |n| from + n)
}

/// Splits the text into rows, dropping `;` comment lines. Quotes follow RFC 4180 (`""` is a
/// quote inside a quoted field); the second export quotes every name, the first none.
fn split_rows(text: &str) -> Result<Vec<Row<'_>>> {
    let bytes = text.as_bytes();
    let mut rows = Vec::new();
    let mut pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut line = 1;
    while pos < bytes.len() {
        if bytes[pos] == b';' {
            // Comments are the column headers; they are not parsed, so a stray quote in one
            // cannot swallow the rows after it.
            pos =
                bytes[pos..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| pos + n + 1);
            line += 1;
            continue;
        }
        let row_line = line;
        let mut fields = Vec::new();
        loop {
            let start = pos;
            let field = if bytes.get(pos) == Some(&b'"') {
                let mut value = String::new();
                let mut piece = pos + 1;
                let mut i = pos + 1;
                loop {
                    match bytes.get(i) {
                        None => {
                            return Err(ModelError {
                                kind: ModelErrorKind::CsvField {
                                    line: row_line,
                                    column: fields.len() + 1,
                                    field: "field",
                                    problem: CsvProblem::UnclosedQuote,
                                },
                                section: ModelSection::Bones,
                                record: None,
                                offset: start as u64,
                            });
                        }
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                            value.push_str(&text[piece..=i]);
                            i += 2;
                            piece = i;
                        }
                        Some(b'"') => {
                            value.push_str(&text[piece..i]);
                            i += 1;
                            break;
                        }
                        Some(b'\n') => {
                            line += 1;
                            i += 1;
                        }
                        Some(_) => i += 1,
                    }
                }
                // Text between the closing quote and the comma is kept, as spreadsheets do.
                pos = field_end(bytes, i);
                value.push_str(text[i..pos].trim_end_matches('\r'));
                Cow::Owned(value)
            } else {
                pos = field_end(bytes, pos);
                Cow::Borrowed(text[start..pos].trim_end_matches('\r'))
            };
            fields.push(Field { text: field, offset: start });
            match bytes.get(pos) {
                Some(b',') => pos += 1,
                Some(_) => {
                    pos += 1;
                    line += 1;
                    break;
                }
                None => break,
            }
        }
        rows.push(Row { line: row_line, fields });
    }
    Ok(rows)
}

/// Reads one row's fields, making errors that name the row's line and the field's column.
struct Fields<'r, 'a> {
    row: &'r Row<'a>,
    columns: &'static [&'static str],
    section: ModelSection,
    record: usize,
}

impl Fields<'_, '_> {
    fn error(&self, column: usize, problem: CsvProblem) -> ModelError {
        ModelError {
            kind: ModelErrorKind::CsvField {
                line: self.row.line,
                column: column + 1,
                field: self.columns[column],
                problem,
            },
            section: self.section,
            record: Some(self.record as u64),
            offset: self.row.fields[column].offset as u64,
        }
    }

    fn text(&self, column: usize) -> &str {
        &self.row.fields[column].text
    }

    fn flag(&self, column: usize) -> Result<bool> {
        match self.text(column).trim() {
            "0" => Ok(false),
            "1" => Ok(true),
            value => Err(self.error(column, CsvProblem::NotAFlag { value: value.to_string() })),
        }
    }

    fn f32(&self, column: usize) -> Result<f32> {
        let value = self.text(column).trim();
        // NaN or infinity would parse but poison every pose computed from the bone.
        value
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.error(column, CsvProblem::NotANumber { value: value.to_string() }))
    }

    fn i32(&self, column: usize) -> Result<i32> {
        let value = self.text(column).trim();
        value
            .parse::<i32>()
            .map_err(|_| self.error(column, CsvProblem::NotANumber { value: value.to_string() }))
    }

    fn vec3(&self, column: usize) -> Result<Vec3> {
        Ok(Vec3::new(self.f32(column)?, self.f32(column + 1)?, self.f32(column + 2)?))
    }

    /// The bone a name field names: `None` when empty, an error when no bone has the name.
    fn bone(&self, column: usize, index: &HashMap<&str, usize>) -> Result<Option<usize>> {
        let name = self.text(column);
        if name.is_empty() {
            return Ok(None);
        }
        match index.get(name) {
            Some(&i) => Ok(Some(i)),
            None => Err(self.error(column, CsvProblem::UnknownBone { name: name.to_string() })),
        }
    }

    /// As [`Fields::bone`], for a field that must name a bone.
    fn required_bone(&self, column: usize, index: &HashMap<&str, usize>) -> Result<usize> {
        self.bone(column, index)?.ok_or_else(|| self.error(column, CsvProblem::Empty))
    }
}

/// Checks a row's length, so that field access after it cannot go out of bounds.
fn fields<'r, 'a>(
    row: &'r Row<'a>,
    columns: &'static [&'static str],
    section: ModelSection,
    record: usize,
) -> Result<Fields<'r, 'a>> {
    if row.fields.len() < columns.len() {
        return Err(ModelError {
            kind: ModelErrorKind::CsvRowTooShort {
                line: row.line,
                row: if section == ModelSection::Bones { "Bone" } else { "IKLink" },
                needed: columns.len(),
                found: row.fields.len(),
            },
            section,
            record: Some(record as u64),
            offset: row.fields[0].offset as u64,
        });
    }
    Ok(Fields { row, columns, section, record })
}

/// Everything of a `Bone` row that does not name another bone.
fn read_bone(f: &Fields) -> Result<Bone> {
    let name = f.text(1);
    let mut flags = BoneFlags::default();
    let after_physics = f.flag(4)?;
    for (column, flag) in [
        (8, BoneFlags::ROTATABLE),
        (9, BoneFlags::MOVABLE),
        (10, BoneFlags::IK),
        (11, BoneFlags::VISIBLE),
        (12, BoneFlags::CONTROLLABLE),
        (14, BoneFlags::TAIL_IS_BONE),
        (19, BoneFlags::APPEND_LOCAL),
        (20, BoneFlags::APPEND_ROTATION),
        (21, BoneFlags::APPEND_TRANSLATION),
        (24, BoneFlags::FIXED_AXIS),
        (28, BoneFlags::LOCAL_AXES),
        (35, BoneFlags::EXTERNAL_PARENT),
    ] {
        flags.set(flag, f.flag(column)?);
    }
    flags.set(BoneFlags::AFTER_PHYSICS, after_physics);
    let has = |flag| flags.contains(flag);
    Ok(Bone {
        name: name.to_string(),
        name_en: f.text(2).to_string(),
        name_cp932: key_name(name),
        position: f.vec3(5)?,
        parent: None,
        deform_layer: f.i32(3)?,
        flags,
        tail: if has(BoneFlags::TAIL_IS_BONE) {
            Tail::Bone(None)
        } else {
            Tail::Offset(f.vec3(16)?)
        },
        append: None,
        fixed_axis: if has(BoneFlags::FIXED_AXIS) { Some(f.vec3(25)?) } else { None },
        local_axes: if has(BoneFlags::LOCAL_AXES) {
            Some((f.vec3(29)?, f.vec3(32)?))
        } else {
            None
        },
        external_parent_key: if has(BoneFlags::EXTERNAL_PARENT) { Some(f.i32(36)?) } else { None },
        ik: None,
        after_physics,
        pmd_type: None,
    })
}

/// Fills in the fields of a `Bone` row that name other bones.
fn link_bone(bone: &mut Bone, f: &Fields, index: &HashMap<&str, usize>) -> Result<()> {
    bone.parent = f.bone(13, index)?;
    if bone.flags.contains(BoneFlags::TAIL_IS_BONE) {
        // The tail only changes how an editor draws the bone, so a name that has gone (a tip
        // bone deleted by hand) is not worth refusing the file for.
        let name = f.text(15);
        bone.tail = Tail::Bone(if name.is_empty() { None } else { index.get(name).copied() });
    }
    let rotation = bone.flags.contains(BoneFlags::APPEND_ROTATION);
    let translation = bone.flags.contains(BoneFlags::APPEND_TRANSLATION);
    if rotation || translation {
        let ratio = f.f32(22)?;
        // As in PMX, an append flag with no source has nothing to follow: no append.
        bone.append = f.bone(23, index)?.map(|parent| Append {
            parent,
            ratio,
            rotation,
            translation,
            local: bone.flags.contains(BoneFlags::APPEND_LOCAL),
        });
    }
    if bone.flags.contains(BoneFlags::IK) {
        bone.ik = Some(Ik {
            target: f.required_bone(37, index)?,
            loop_count: f.i32(38)?,
            limit_angle: f.f32(39)?.to_radians(),
            links: Vec::new(),
        });
    }
    Ok(())
}

/// Reads a bone CSV's text; see [`Model::parse_bone_csv`].
pub(crate) fn parse(text: &str) -> Result<Model> {
    let rows = split_rows(text)?;
    fn kind<'r>(row: &'r Row) -> &'r str {
        row.fields[0].text.trim()
    }
    let bone_rows: Vec<&Row> = rows.iter().filter(|r| kind(r) == "Bone").collect();
    if bone_rows.is_empty() {
        return Err(ModelError {
            kind: ModelErrorKind::NotAModel { what: "a CSV with no Bone rows".to_string() },
            section: ModelSection::Header,
            record: None,
            offset: 0,
        });
    }

    let mut bones = Vec::with_capacity(bone_rows.len());
    for (i, row) in bone_rows.iter().enumerate() {
        bones.push(read_bone(&fields(row, &BONE_COLUMNS, ModelSection::Bones, i)?)?);
    }
    // PMX allows duplicate names; a name then means the first bone that has it, as a VMD key
    // binds to the first match.
    let mut index = HashMap::with_capacity(bone_rows.len());
    for (i, row) in bone_rows.iter().enumerate() {
        index.entry(row.fields[1].text.as_ref()).or_insert(i);
    }
    for (i, row) in bone_rows.iter().enumerate() {
        link_bone(&mut bones[i], &fields(row, &BONE_COLUMNS, ModelSection::Bones, i)?, &index)?;
    }

    for (i, row) in rows.iter().filter(|r| kind(r) == "IKLink").enumerate() {
        let f = fields(row, &LINK_COLUMNS, ModelSection::Ik, i)?;
        let ik_bone = f.required_bone(1, &index)?;
        let bone = f.required_bone(2, &index)?;
        let limits = if f.flag(3)? {
            // The columns pair each axis's limits, the model keeps a min and a max vector.
            let mut v = [0.0f32; 6];
            for (k, value) in v.iter_mut().enumerate() {
                *value = f.f32(4 + k)?.to_radians();
            }
            Some((Vec3::new(v[0], v[2], v[4]), Vec3::new(v[1], v[3], v[5])))
        } else {
            None
        };
        match &mut bones[ik_bone].ik {
            Some(ik) => ik.links.push(IkLink { bone, limits }),
            None => {
                let name = f.text(1).to_string();
                return Err(f.error(1, CsvProblem::NotAnIkBone { name }));
            }
        }
    }

    Ok(Model::from_bones(ModelFormat::BoneCsv, "", bones))
}

#[cfg(test)]
mod tests;
