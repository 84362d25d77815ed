//! Reading the CSV table. Rows are collected first, because the `#meta` rows that say how names
//! are encoded may come anywhere.

use super::{col, COLUMNS, IK, META};
use crate::convert::fields::{self, BoneParts, CameraParts, IkParts, NamesIn};
use crate::convert::scalar::{
    parse_bool, parse_curve, parse_encoding, parse_f32, parse_physics, unhex, unhex_array,
};
use crate::convert::ConvertError;
use crate::convert::{FORMAT, SCHEMA_VERSION};
use crate::curve::Curve;
use crate::format::layout::SIGNATURE_LEN;
use crate::format::{
    BoneKey, CameraKey, Header, IkState, LightKey, Motion, PhysicsToggle, PropertyKey, Section,
    ShadowKey, Version,
};
use crate::text::TextEncoding;
use glam::{Quat, Vec3};
use std::collections::HashMap;
use std::str::FromStr;

type Result<T> = std::result::Result<T, ConvertError>;

fn csv_error(line: u64, column: Option<usize>, reason: impl Into<String>) -> ConvertError {
    ConvertError::Csv {
        line,
        column: column.map(|c| COLUMNS[c].to_string()),
        reason: reason.into(),
    }
}

/// One data row and where each known column is in it.
struct Row<'a> {
    record: &'a csv::StringRecord,
    positions: &'a [Option<usize>; COLUMNS.len()],
    line: u64,
}

impl Row<'_> {
    /// A cell, trimmed unless it holds text: names may end in spaces (some writers pad with them).
    fn cell(&self, c: usize) -> &str {
        let cell = self.positions[c].and_then(|p| self.record.get(p)).unwrap_or("");
        if c == col::NAME || c == col::VALUE {
            cell
        } else {
            cell.trim()
        }
    }

    fn err(&self, c: usize, reason: impl Into<String>) -> ConvertError {
        csv_error(self.line, Some(c), reason)
    }

    fn opt<T>(
        &self,
        c: usize,
        parse: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<Option<T>> {
        match self.cell(c) {
            "" => Ok(None),
            text => parse(text).map(Some).map_err(|e| self.err(c, e)),
        }
    }

    fn req<T>(
        &self,
        c: usize,
        parse: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<T> {
        self.opt(c, parse)?.ok_or_else(|| self.err(c, "this cell is required"))
    }

    fn int<T: FromStr>(text: &str) -> std::result::Result<T, String> {
        text.parse().map_err(|_| format!("{text:?} is not a whole number in range"))
    }

    fn frame(&self) -> Result<u32> {
        self.req(col::FRAME, Self::int)
    }

    /// All of the columns or none of them.
    fn floats<const N: usize>(&self, cols: [usize; N]) -> Result<Option<[f32; N]>> {
        let values = cols.map(|c| self.opt(c, parse_f32));
        if values.iter().all(|v| matches!(v, Ok(None))) {
            return Ok(None);
        }
        let mut out = [0.0; N];
        for (k, v) in values.into_iter().enumerate() {
            out[k] = v?.ok_or_else(|| self.err(cols[k], "fill all of these cells or none"))?;
        }
        Ok(Some(out))
    }

    fn vec3(&self, cols: [usize; 3]) -> Result<Option<Vec3>> {
        Ok(self.floats(cols)?.map(Vec3::from_array))
    }

    fn req_vec3(&self, cols: [usize; 3]) -> Result<Vec3> {
        self.vec3(cols)?.ok_or_else(|| self.err(cols[0], "these cells are required"))
    }

    fn curves<const N: usize>(&self) -> Result<[Option<Curve>; N]> {
        let mut out = [None; N];
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = self.opt(col::CURVES[k], parse_curve)?;
        }
        Ok(out)
    }

    /// The `raw` cell: a whole record of `N` bytes.
    fn raw<const N: usize>(&self) -> Result<Option<[u8; N]>> {
        self.opt(col::RAW, unhex_array::<N>)
    }

    fn no_raw(&self, what: &str) -> Result<()> {
        match self.cell(col::RAW) {
            "" => Ok(()),
            _ => Err(self.err(col::RAW, format!("{what} rows have no raw bytes"))),
        }
    }
}

fn column_positions(header: &csv::StringRecord) -> Result<[Option<usize>; COLUMNS.len()]> {
    let mut positions = [None; COLUMNS.len()];
    for (p, name) in header.iter().enumerate() {
        let name = name.trim().trim_start_matches('\u{FEFF}');
        let Some(c) = COLUMNS.iter().position(|&known| known == name) else {
            if name.is_empty() {
                continue;
            }
            let reason = format!("unknown column {name:?}; the columns are {}", COLUMNS.join(","));
            return Err(csv_error(1, None, reason));
        };
        if positions[c].replace(p).is_some() {
            return Err(csv_error(1, None, format!("column {name:?} appears twice")));
        }
    }
    if positions[col::SECTION].is_none() {
        return Err(csv_error(1, None, "no `section` column: is the first line the header?"));
    }
    Ok(positions)
}

pub(super) fn read(text: &str) -> Result<(Motion, Vec<String>)> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader =
        csv::ReaderBuilder::new().flexible(true).has_headers(false).from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = match records.next() {
        Some(r) => r.map_err(|e| csv_error(1, None, e.to_string()))?,
        None => return Err(csv_error(1, None, "the file is empty: no header row")),
    };
    let positions = column_positions(&header)?;
    let mut meta = Meta::new();
    let mut rows = Vec::new();
    for record in records {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            csv_error(line, None, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row = Row { record: &record, positions: &positions, line };
        let section = row.cell(col::SECTION);
        if section == META {
            let key = row.cell(col::NAME).trim().to_string();
            let value = row.cell(col::VALUE);
            let value = if key == "model_name" { value } else { value.trim() }.to_string();
            if meta.insert(key.clone(), (value, line)).is_some() {
                return Err(csv_error(
                    line,
                    Some(col::NAME),
                    format!("#meta {key:?} is given twice"),
                ));
            }
        } else if !(section.starts_with('#')
            || section.is_empty() && record.iter().all(|c| c.trim().is_empty()))
        {
            rows.push((record, line));
        }
    }

    let mut warnings = Vec::new();
    let trailing_line = meta.get("trailing").map_or(1, |(_, line)| *line);
    let (mut motion, mut names) = motion_from_meta(meta, &mut warnings)?;
    for (record, line) in &rows {
        let row = Row { record, positions: &positions, line: *line };
        add_row(&row, &mut motion, &mut names)?;
        warnings.extend(names.warnings.drain(..).map(|w| format!("CSV line {line}: {w}")));
    }
    fields::check_trailing(&motion)
        .map_err(|e| value_err(trailing_line, format!("{}: {}", e.field, e.reason)))?;
    Ok((motion, warnings))
}

/// The `#meta` rows by key: each value, and the line it is on for errors.
type Meta = HashMap<String, (String, u64)>;

const META_KEYS: [&str; 9] = [
    "format",
    "schema_version",
    "vmd_version",
    "encoding",
    "model_name",
    "model_name_raw",
    "signature_raw",
    "sections_present",
    "trailing",
];

/// An empty motion with the header and file-level fields the `#meta` rows give, and the
/// encoder for the names in the rows.
fn motion_from_meta(mut meta: Meta, warnings: &mut Vec<String>) -> Result<(Motion, NamesIn)> {
    if let Some((key, (_, line))) = meta.iter().find(|(k, _)| !META_KEYS.contains(&k.as_str())) {
        return Err(csv_error(
            *line,
            Some(col::NAME),
            format!("unknown #meta key {key:?}; known keys: {}", META_KEYS.join(", ")),
        ));
    }
    let mut take = |key: &str| meta.remove(key);
    check_identity(take("format"), take("schema_version"))?;
    let version = meta_version(take("vmd_version"))?;
    let encoding = match take("encoding") {
        None => TextEncoding::ShiftJis,
        Some((e, line)) => parse_encoding(&e).map_err(|r| value_err(line, r))?,
    };
    let model_name_raw = meta_hex(take("model_name_raw"))?;
    let signature_raw = meta_signature(take("signature_raw"))?;
    let sections_present = meta_sections_present(take("sections_present"))?;
    let trailing = meta_hex(take("trailing"))?.map(|(b, _)| b).unwrap_or_default();
    let (name, name_line) = take("model_name").unwrap_or_default();

    let raw = model_name_raw.as_ref().map(|(b, _)| &b[..]);
    let mut names = NamesIn::new(encoding);
    let model_name = names.model_name(version, &name, raw).map_err(|e| {
        let line = model_name_raw.as_ref().map_or(name_line, |(_, l)| *l);
        value_err(line, format!("{}: {}", e.field, e.reason))
    })?;
    warnings.extend(names.warnings.drain(..).map(|w| format!("CSV line {name_line}: {w}")));
    let mut motion = Motion::new(model_name);
    motion.header = Header { signature: fields::signature_in(version, signature_raw), model_name };
    motion.sections_present = sections_present;
    motion.trailing = trailing;
    Ok((motion, names))
}

fn value_err(line: u64, reason: String) -> ConvertError {
    csv_error(line, Some(col::VALUE), reason)
}

/// Unlike a JSON document, a table may leave out `format` and `schema_version`: a hand-made
/// sheet is still read, but a sheet that says it is something else is not.
fn check_identity(format: Option<(String, u64)>, schema: Option<(String, u64)>) -> Result<()> {
    if let Some((format, line)) = format {
        if format != FORMAT {
            return Err(value_err(line, format!("format is {format:?}, expected {FORMAT:?}")));
        }
    }
    if let Some((version, line)) = schema {
        match version.parse::<u64>() {
            Ok(v) if v == SCHEMA_VERSION as u64 => {}
            Ok(found) => {
                return Err(ConvertError::UnsupportedSchema { found, supported: SCHEMA_VERSION })
            }
            Err(_) => {
                return Err(value_err(line, format!("schema_version {version:?} is not a number")))
            }
        }
    }
    Ok(())
}

fn meta_version(entry: Option<(String, u64)>) -> Result<Version> {
    match entry {
        None => Ok(Version::V2),
        Some((v, _)) if v == "2" => Ok(Version::V2),
        Some((v, _)) if v == "1" => Ok(Version::V1),
        Some((v, line)) => Err(value_err(line, format!("vmd_version {v:?} is not 1 or 2"))),
    }
}

/// The bytes, with the line they came from.
fn meta_hex(entry: Option<(String, u64)>) -> Result<Option<(Vec<u8>, u64)>> {
    entry.map(|(v, line)| unhex(&v).map(|b| (b, line)).map_err(|r| value_err(line, r))).transpose()
}

fn meta_signature(entry: Option<(String, u64)>) -> Result<Option<[u8; SIGNATURE_LEN]>> {
    let Some((bytes, line)) = meta_hex(entry)? else {
        return Ok(None);
    };
    let signature = bytes.try_into().map_err(|b: Vec<u8>| {
        value_err(line, format!("expected 30 bytes of hex, found {}", b.len()))
    })?;
    Ok(Some(signature))
}

fn meta_sections_present(entry: Option<(String, u64)>) -> Result<usize> {
    let Some((n, line)) = entry else {
        return Ok(6);
    };
    match n.parse::<usize>() {
        Ok(n) if n <= 6 => Ok(n),
        _ => Err(value_err(line, format!("sections_present {n:?} is not 0 to 6"))),
    }
}

fn add_row(row: &Row<'_>, motion: &mut Motion, names: &mut NamesIn) -> Result<()> {
    match row.cell(col::SECTION) {
        "bone" => motion.bones.push(bone_row(row, names)?),
        "morph" => {
            let raw = row.raw::<23>()?;
            let name_raw = raw.as_ref().map(|r| r[..15].try_into().unwrap());
            let weight = row.req(col::WEIGHT, parse_f32)?;
            let key = fields::morph_in(row.cell(col::NAME), name_raw, row.frame()?, weight, names);
            motion.morphs.push(key);
        }
        "camera" => motion.cameras.push(camera_row(row)?),
        "light" => {
            row.no_raw("light")?;
            let (color, direction) = (row.req_vec3(col::RGB)?, row.req_vec3(col::XYZ)?);
            motion.lights.push(LightKey { frame: row.frame()?, color, direction });
        }
        "self_shadow" => {
            row.no_raw("self_shadow")?;
            let mode = row.req(col::MODE, Row::int)?;
            let distance = row.req(col::DISTANCE, parse_f32)?;
            motion.shadows.push(ShadowKey { frame: row.frame()?, mode, distance });
        }
        "property" => {
            let raw = row.raw::<9>()?;
            let visible = row.opt(col::VISIBLE, parse_bool)?;
            let key = fields::property_in(row.frame()?, visible, raw.map(|r| r[4]), Vec::new());
            motion.properties.push(key);
        }
        IK => {
            let Some(property) = motion.properties.last_mut() else {
                return Err(
                    row.err(col::SECTION, "an ik row must follow the property row it belongs to")
                );
            };
            check_ik_frame(row, property)?;
            property.ik.push(ik_row(row, names)?);
        }
        "" => return Err(row.err(col::SECTION, "no section")),
        other => {
            let known: Vec<&str> =
                Section::ALL.iter().map(|s| s.name()).chain([IK, META]).collect();
            return Err(row.err(
                col::SECTION,
                format!("unknown section {other:?}; expected one of {}", known.join(", ")),
            ));
        }
    }
    Ok(())
}

fn bone_row(row: &Row<'_>, names: &mut NamesIn) -> Result<BoneKey> {
    let raw = row.raw::<111>()?;
    let rotation = row.floats(col::QUAT)?.map(Quat::from_array);
    let euler_deg = row.vec3(col::EULER)?;
    if rotation.is_some() && euler_deg.is_some() {
        return Err(row.err(col::EULER[0], "give either qx..qw or euler_x..euler_z, not both"));
    }
    let curves = row.curves::<4>()?;
    let parts = BoneParts {
        name: row.cell(col::NAME),
        name_raw: raw.as_ref().map(|r| r[..15].try_into().unwrap()),
        frame: row.frame()?,
        translation: row.vec3(col::XYZ)?,
        rotation,
        euler_deg,
        curves,
        physics: row.opt::<PhysicsToggle>(col::PHYSICS, parse_physics)?,
        interpolation_raw: raw.as_ref().map(|r| r[47..].try_into().unwrap()),
    };
    fields::bone_in(parts, names).map_err(|e| row.err(col::EULER[0], e.reason))
}

fn camera_row(row: &Row<'_>) -> Result<CameraKey> {
    let raw = row.raw::<61>()?;
    Ok(fields::camera_in(CameraParts {
        frame: row.frame()?,
        distance: row.req(col::DISTANCE, parse_f32)?,
        target: row.req_vec3(col::XYZ)?,
        rotation: row.req_vec3(col::RXYZ)?,
        curves: row.curves::<6>()?,
        view_angle: row.req(col::VIEW_ANGLE, Row::int)?,
        perspective: row.opt(col::PERSPECTIVE, parse_bool)?,
        perspective_raw: raw.map(|r| r[60]),
    }))
}

fn ik_row(row: &Row<'_>, names: &mut NamesIn) -> Result<IkState> {
    let raw = row.raw::<21>()?;
    let parts = IkParts {
        name: row.cell(col::NAME),
        name_raw: raw.as_ref().map(|r| r[..20].try_into().unwrap()),
        enabled: row.opt(col::ENABLED, parse_bool)?,
        enabled_raw: raw.map(|r| r[20]),
    };
    Ok(fields::ik_in(parts, "name", names))
}

/// IK rows repeat their property's frame; a different one means rows were moved apart (e.g. by
/// sorting the sheet), which would otherwise silently attach IK states to the wrong key.
fn check_ik_frame(row: &Row<'_>, property: &PropertyKey) -> Result<()> {
    match row.opt::<u32>(col::FRAME, Row::int)? {
        Some(frame) if frame != property.frame => Err(row.err(
            col::FRAME,
            format!(
                "ik row at frame {frame} follows the property row of frame {}: \
                 keep ik rows under their property row",
                property.frame
            ),
        )),
        _ => Ok(()),
    }
}
