//! Writing the CSV table.

use super::{col, COLUMNS, IK, META};
use crate::convert::fields::{flag_out, interpolation_out, signature_out, NamesOut};
use crate::convert::scalar::{physics_text, write_curve, write_f32, Hex};
use crate::convert::{trailing, FORMAT, SCHEMA_VERSION};
use crate::curve::Curve;
use crate::format::{BoneKey, CameraKey, IkState, MorphKey, Motion, PropertyKey, Section};
use glam::Vec3;
use std::fmt::{Display, Write as _};
use std::io::{self, Write};

/// One row's cells, reused from row to row.
struct Row {
    cells: Vec<String>,
}

impl Row {
    fn set(&mut self, col: usize, value: impl Display) {
        write!(self.cells[col], "{value}").unwrap();
    }

    /// The two cells every keyframe row has.
    fn key(&mut self, section: impl Display, frame: u32) {
        self.set(col::SECTION, section);
        self.set(col::FRAME, frame);
    }

    fn f32(&mut self, col: usize, value: f32) {
        write_f32(&mut self.cells[col], value);
    }

    fn floats<const N: usize>(&mut self, cols: [usize; N], values: [f32; N]) {
        for (c, x) in cols.into_iter().zip(values) {
            self.f32(c, x);
        }
    }

    fn vec3(&mut self, cols: [usize; 3], v: Vec3) {
        self.floats(cols, v.to_array());
    }

    /// Bone keys fill the first four curve columns, camera keys all six.
    fn curves(&mut self, curves: impl IntoIterator<Item = Curve>) {
        for (c, curve) in col::CURVES.into_iter().zip(curves) {
            write_curve(&mut self.cells[c], curve);
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.set(col::RAW, Hex(bytes));
    }

    fn flush<W: Write>(&mut self, out: &mut csv::Writer<W>) -> io::Result<()> {
        out.write_record(&self.cells).map_err(io_error)?;
        self.cells.iter_mut().for_each(String::clear);
        Ok(())
    }
}

pub(super) fn write(
    motion: &Motion,
    mut w: impl Write,
    max_trailing: usize,
    bom: bool,
) -> io::Result<()> {
    if bom {
        w.write_all("\u{FEFF}".as_bytes())?;
    }
    let mut out = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .buffer_capacity(1 << 16)
        .from_writer(w);
    out.write_record(COLUMNS).map_err(io_error)?;
    let mut row = Row { cells: vec![String::new(); COLUMNS.len()] };
    let names = NamesOut::new(motion.detect_encoding());
    write_meta(motion, &names, max_trailing, &mut row, &mut out)?;
    for k in &motion.bones {
        bone_row(&mut row, k, &names);
        row.flush(&mut out)?;
    }
    for k in &motion.morphs {
        morph_row(&mut row, k, &names);
        row.flush(&mut out)?;
    }
    for k in &motion.cameras {
        camera_row(&mut row, k);
        row.flush(&mut out)?;
    }
    for k in &motion.lights {
        row.key(Section::Light, k.frame);
        row.vec3(col::RGB, k.color);
        row.vec3(col::XYZ, k.direction);
        row.flush(&mut out)?;
    }
    for k in &motion.shadows {
        row.key(Section::SelfShadow, k.frame);
        row.set(col::MODE, k.mode);
        row.f32(col::DISTANCE, k.distance);
        row.flush(&mut out)?;
    }
    for k in &motion.properties {
        property_row(&mut row, k);
        row.flush(&mut out)?;
        for ik in &k.ik {
            ik_row(&mut row, k.frame, ik, &names);
            row.flush(&mut out)?;
        }
    }
    out.flush()
}

/// The writer's error as the `io::Error` it is, not one wrapping it with another kind: a caller
/// must see a closed pipe (`vmdkit convert --to csv big.vmd - | head`) as such.
fn io_error(err: csv::Error) -> io::Error {
    if !err.is_io_error() {
        return io::Error::other(err);
    }
    match err.into_kind() {
        csv::ErrorKind::Io(err) => err,
        other => io::Error::other(format!("{other:?}")),
    }
}

fn bone_row(row: &mut Row, k: &BoneKey, names: &NamesOut) {
    let (name, name_raw) = names.name(&k.name);
    row.key(Section::Bone, k.frame);
    row.set(col::NAME, name);
    row.vec3(col::XYZ, k.translation);
    row.floats(col::QUAT, k.rotation.to_array());
    row.curves(k.interpolation.curves());
    row.set(col::PHYSICS, physics_text(k.interpolation.physics()));
    if name_raw.is_some() || interpolation_out(&k.interpolation).is_some() {
        row.raw(&k.encode());
    }
}

fn morph_row(row: &mut Row, k: &MorphKey, names: &NamesOut) {
    let (name, name_raw) = names.name(&k.name);
    row.key(Section::Morph, k.frame);
    row.set(col::NAME, name);
    row.f32(col::WEIGHT, k.weight);
    if name_raw.is_some() {
        row.raw(&k.encode());
    }
}

fn camera_row(row: &mut Row, k: &CameraKey) {
    row.key(Section::Camera, k.frame);
    row.vec3(col::XYZ, k.target);
    row.vec3(col::RXYZ, k.rotation);
    row.f32(col::DISTANCE, k.distance);
    row.set(col::VIEW_ANGLE, k.view_angle);
    row.set(col::PERSPECTIVE, k.is_perspective());
    row.curves(k.interpolation.curves());
    if flag_out(k.perspective_byte).is_some() {
        row.raw(&k.encode());
    }
}

/// The property row's raw cell holds only the record's head (frame and visible byte): its IK
/// states have rows of their own.
fn property_row(row: &mut Row, k: &PropertyKey) {
    row.key(Section::Property, k.frame);
    row.set(col::VISIBLE, k.is_visible());
    if flag_out(k.visible_byte).is_some() {
        let mut head = Vec::with_capacity(k.encoded_len());
        k.encode_into(&mut head);
        row.raw(&head[..9]);
    }
}

/// An IK row repeats its property's frame, so a sorted sheet can be caught when read back.
fn ik_row(row: &mut Row, frame: u32, ik: &IkState, names: &NamesOut) {
    let (name, name_raw) = names.name(&ik.name);
    row.key(IK, frame);
    row.set(col::NAME, name);
    row.set(col::ENABLED, ik.is_enabled());
    if name_raw.is_some() || flag_out(ik.enabled_byte).is_some() {
        let mut entry = [0u8; 21];
        entry[..20].copy_from_slice(&ik.name.0);
        entry[20] = ik.enabled_byte;
        row.raw(&entry);
    }
}

fn write_meta<W: Write>(
    motion: &Motion,
    names: &NamesOut,
    max_trailing: usize,
    row: &mut Row,
    out: &mut csv::Writer<W>,
) -> io::Result<()> {
    let mut meta = |key: &str, value: &dyn Display| {
        row.set(col::SECTION, META);
        row.set(col::NAME, key);
        row.set(col::VALUE, value);
        row.flush(out)
    };
    let header = &motion.header;
    let (model_name, model_name_raw) = names.model_name(header);
    meta("format", &FORMAT)?;
    meta("schema_version", &SCHEMA_VERSION)?;
    meta("vmd_version", &(header.version() as u8))?;
    meta("encoding", &names.encoding().label())?;
    meta("model_name", &model_name)?;
    if let Some(raw) = model_name_raw {
        meta("model_name_raw", &Hex(raw))?;
    }
    if let Some(raw) = signature_out(header) {
        meta("signature_raw", &Hex(raw))?;
    }
    if motion.sections_present != 6 {
        meta("sections_present", &motion.sections_present)?;
    }
    let (trailing, len) = trailing::kept(motion, max_trailing);
    for piece in trailing.chunks(trailing::PIECE) {
        meta("trailing", &Hex(piece))?;
    }
    if let Some(len) = len {
        meta("trailing_len", &len)?;
    }
    Ok(())
}
