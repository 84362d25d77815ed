//! Reading the CSV table as it streams past: one row at a time into the motion, names given
//! placeholders until the `#meta` rows, which may come anywhere, have all been read.

use super::meta::Meta;
use super::{col, csv_error, CsvResult as Result, COLUMNS, IK, META};
use crate::convert::deferred::DeferredNames;
use crate::convert::fields::{self, BoneParts, CameraParts};
use crate::convert::scalar::{parse_bool, parse_curve, parse_f32, parse_physics, unhex_array};
use crate::convert::{skip_bom, ConvertError, Converted};
use crate::curve::Curve;
use crate::format::{
    BoneKey, CameraKey, IkState, LightKey, MorphKey, Motion, PhysicsToggle, PropertyKey, Section,
    ShadowKey,
};
use glam::{Quat, Vec3};
use std::io::{self, Read};
use std::str::FromStr;

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

    /// Where a field of this row is, as warnings start.
    fn field(&self, name: &str) -> String {
        format!("CSV line {}: {name}", self.line)
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
        text.parse()
            .map_err(|_| format!("{:?} is not a whole number in range", crate::shown::Shown(text)))
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
            let reason = format!(
                "unknown column {:?}; the columns are {}",
                crate::shown::Shown(name),
                COLUMNS.join(",")
            );
            return Err(csv_error(1, None, reason));
        };
        if positions[c].replace(p).is_some() {
            return Err(csv_error(
                1,
                None,
                format!("column {:?} appears twice", crate::shown::Shown(name)),
            ));
        }
    }
    if positions[col::SECTION].is_none() {
        return Err(csv_error(1, None, "no `section` column: is the first line the header?"));
    }
    Ok(positions)
}

pub(super) fn read(r: impl Read) -> Result<Converted> {
    let mut r = io::BufReader::with_capacity(1 << 16, r);
    skip_bom(&mut r)?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .buffer_capacity(1 << 16)
        .from_reader(r);
    let record_error = |e: csv::Error| {
        let (line, message) = (e.position().map_or(0, |p| p.line()), e.to_string());
        match e.into_kind() {
            csv::ErrorKind::Io(e) => ConvertError::Io(e),
            _ => csv_error(line, None, message),
        }
    };
    // One record, reused: rows become keys as they are read.
    let mut record = csv::StringRecord::new();
    if !reader.read_record(&mut record).map_err(record_error)? {
        return Err(csv_error(1, None, "the file is empty: no header row"));
    }
    let positions = column_positions(&record)?;
    let mut meta = Meta::default();
    let mut motion = Motion::default();
    let mut names = DeferredNames::new();
    while reader.read_record(&mut record).map_err(record_error)? {
        let line = record.position().map_or(0, |p| p.line());
        let row = Row { record: &record, positions: &positions, line };
        let section = row.cell(col::SECTION);
        if section == META {
            meta.add(row.cell(col::NAME).trim(), row.cell(col::VALUE), line)?;
        } else if !(section.starts_with('#')
            || section.is_empty() && record.iter().all(|c| c.trim().is_empty()))
        {
            add_row(&row, &mut motion, &mut names)?;
        }
    }
    let warnings = meta.apply(&mut motion, names)?;
    Ok(Converted { motion, warnings })
}

fn add_row(row: &Row<'_>, motion: &mut Motion, names: &mut DeferredNames) -> Result<()> {
    match row.cell(col::SECTION) {
        "bone" => motion.bones.push(bone_row(row, names)?),
        "morph" => {
            let raw = row.raw::<23>()?;
            let name_raw = raw.as_ref().map(|r| r[..15].try_into().unwrap());
            let weight = row.req(col::WEIGHT, parse_f32)?;
            let frame = row.frame()?;
            let name = names.key_name(row.cell(col::NAME), name_raw, || row.field("name"));
            motion.morphs.push(MorphKey { name, frame, weight });
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

fn bone_row(row: &Row<'_>, names: &mut DeferredNames) -> Result<BoneKey> {
    let raw = row.raw::<111>()?;
    let rotation = row.floats(col::QUAT)?.map(Quat::from_array);
    let euler_deg = row.vec3(col::EULER)?;
    if rotation.is_some() && euler_deg.is_some() {
        return Err(row.err(col::EULER[0], "give either qx..qw or euler_x..euler_z, not both"));
    }
    let curves = row.curves::<4>()?;
    let parts = BoneParts {
        frame: row.frame()?,
        translation: row.vec3(col::XYZ)?,
        rotation,
        euler_deg,
        curves,
        physics: row.opt::<PhysicsToggle>(col::PHYSICS, parse_physics)?,
        interpolation_raw: raw.as_ref().map(|r| r[47..].try_into().unwrap()),
    };
    let name_raw = raw.as_ref().map(|r| r[..15].try_into().unwrap());
    let name = names.key_name(row.cell(col::NAME), name_raw, || row.field("name"));
    fields::bone_in(parts, name).map_err(|e| row.err(col::EULER[0], e.reason))
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

fn ik_row(row: &Row<'_>, names: &mut DeferredNames) -> Result<IkState> {
    let raw = row.raw::<21>()?;
    let enabled = row.opt(col::ENABLED, parse_bool)?;
    let name_raw = raw.as_ref().map(|r| r[..20].try_into().unwrap());
    let name = names.ik_name(row.cell(col::NAME), name_raw, || row.field("name"));
    Ok(fields::ik_in(name, enabled, raw.map(|r| r[20])))
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
