//! JSON keypoints, in any of three shapes:
//!
//! * nested arrays `[F][J][3]` (or `[F][J][4]`, the fourth a confidence; `[J][3]` is one frame);
//! * an object `{"fps": …, "names" | "joints": […], "frames": [F][J][3], "confidence": [F][J],
//!   "units": "m", "up": "y"}` (what [`Keypoints::write_json`] writes);
//! * one object per frame, `[{"left_knee": [x, y, z] | {"x": …, "y": …, "z": …,
//!   "visibility": …}, …}, …]`, joints named in the order they first appear.
//!
//! `null` anywhere a point or coordinate goes is a missing value. Reading needs the `json`
//! feature (serde_json); objects are read into an order-keeping tree of our own, because
//! serde_json's map sorts keys unless a feature every user of the crate would share is on.

use super::{KeypointError, KeypointErrorKind as Kind, KeypointFormat};
use crate::keypoints::Keypoints;

#[cfg(not(feature = "json"))]
pub(super) fn parse(_bytes: &[u8]) -> Result<Keypoints, KeypointError> {
    let kind = Kind::FeatureDisabled { format: KeypointFormat::Json, feature: "json" };
    Err(KeypointError::new(KeypointFormat::Json, kind))
}

#[cfg(feature = "json")]
pub(super) use with_json::{parse, write};

#[cfg(feature = "json")]
mod with_json {
    use super::*;
    use crate::keypoints::{Units, UpAxis};
    use glam::Vec3;
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::collections::HashMap;
    use std::fmt;
    use std::io::{self, Write};

    const FORMAT: KeypointFormat = KeypointFormat::Json;

    /// A JSON value whose objects keep their key order.
    enum Json {
        Null,
        Bool,
        Number(f64),
        String(String),
        Array(Vec<Json>),
        Object(Vec<(String, Json)>),
    }

    impl<'de> Deserialize<'de> for Json {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
            d.deserialize_any(JsonVisitor)
        }
    }

    struct JsonVisitor;

    impl<'de> Visitor<'de> for JsonVisitor {
        type Value = Json;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_unit<E>(self) -> Result<Json, E> {
            Ok(Json::Null)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
            Ok(Json::Bool)
        }
        fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
            Ok(Json::Number(v as f64))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
            Ok(Json::Number(v as f64))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
            Ok(Json::Number(v))
        }
        fn visit_str<E>(self, v: &str) -> Result<Json, E> {
            Ok(Json::String(v.to_owned()))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
            // No size hint is trusted: the vector grows with the elements actually read.
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Json::Array(items))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
            let mut entries = Vec::new();
            while let Some(entry) = map.next_entry()? {
                entries.push(entry);
            }
            Ok(Json::Object(entries))
        }
    }

    impl Json {
        fn get(&self, key: &str) -> Option<&Json> {
            match self {
                Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }
    }

    fn invalid(message: impl Into<String>, path: impl Into<String>) -> KeypointError {
        KeypointError::new(FORMAT, Kind::Invalid(message.into())).field(path)
    }

    pub(in super::super) fn parse(bytes: &[u8]) -> Result<Keypoints, KeypointError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let root: Json = serde_json::from_slice(bytes).map_err(|e| {
            KeypointError::new(FORMAT, Kind::Syntax(e.to_string()))
                .at_line(e.line() as u64, Some(e.column() as u64))
        })?;
        match &root {
            Json::Object(_) => parse_object(&root),
            Json::Array(frames) => match frames.first() {
                Some(Json::Object(_)) => parse_named_frames(frames, bytes.len()),
                Some(Json::Number(_)) | Some(Json::Null) => {
                    Err(invalid("a flat list of numbers is not frames of points", "[0]"))
                }
                // [J][3]: one frame of points.
                Some(Json::Array(first)) if matches!(first.first(), Some(Json::Number(_))) => {
                    let mut k = Collected::default();
                    k.frame(frames, "")?;
                    k.finish(None)
                }
                _ => {
                    let mut k = Collected::default();
                    for (f, frame) in frames.iter().enumerate() {
                        let Json::Array(points) = frame else {
                            return Err(invalid("not an array of points", format!("[{f}]")));
                        };
                        k.frame(points, &format!("[{f}]"))?;
                    }
                    k.finish(None)
                }
            },
            _ => Err(invalid("neither an array of frames nor an object", "")),
        }
    }

    /// Frames of positional points, with their confidences when any point has one.
    #[derive(Default)]
    struct Collected {
        joints: Option<usize>,
        positions: Vec<Vec3>,
        confidence: Vec<f32>,
        any_confidence: bool,
    }

    impl Collected {
        fn frame(&mut self, points: &[Json], path: &str) -> Result<(), KeypointError> {
            match self.joints {
                Some(j) if j != points.len() => {
                    let message = format!("{} joints, earlier frames have {j}", points.len());
                    return Err(invalid(message, path));
                }
                _ => self.joints = Some(points.len()),
            }
            for (j, point) in points.iter().enumerate() {
                let (p, c) = point_of(point, &format!("{path}[{j}]"))?;
                self.positions.push(p);
                self.any_confidence |= c.is_some();
                self.confidence.push(c.unwrap_or(1.0));
            }
            Ok(())
        }

        fn finish(self, names: Option<Vec<String>>) -> Result<Keypoints, KeypointError> {
            let joint_count = self.joints.unwrap_or(0);
            if let Some(names) = &names {
                if names.len() != joint_count && joint_count > 0 {
                    let message =
                        format!("{} names for {joint_count} joints per frame", names.len());
                    return Err(invalid(message, "names"));
                }
            }
            Ok(Keypoints {
                frame_count: self.positions.len().checked_div(joint_count).unwrap_or(0),
                joint_count,
                positions: self.positions,
                confidence: self.any_confidence.then_some(self.confidence),
                names,
                ..Keypoints::default()
            })
        }
    }

    /// A number, or NaN for `null`.
    fn coordinate(value: Option<&Json>, path: &str) -> Result<f32, KeypointError> {
        match value {
            Some(Json::Number(v)) => Ok(*v as f32),
            Some(Json::Null) | None => Ok(f32::NAN),
            Some(_) => Err(invalid("not a number or null", path)),
        }
    }

    /// `[x, y, z]`, `[x, y, z, c]`, `{"x", "y", "z", "visibility"…}` or `null`.
    fn point_of(value: &Json, path: &str) -> Result<(Vec3, Option<f32>), KeypointError> {
        match value {
            Json::Null => Ok((Vec3::NAN, None)),
            Json::Array(xs) if xs.len() == 3 || xs.len() == 4 => {
                let c = |i: usize| coordinate(xs.get(i), &format!("{path}[{i}]"));
                let conf = if xs.len() == 4 { Some(c(3)?) } else { None };
                Ok((Vec3::new(c(0)?, c(1)?, c(2)?), conf))
            }
            Json::Object(_) => {
                let c = |k: &str| coordinate(value.get(k), &format!("{path}.{k}"));
                let conf_key = ["visibility", "confidence", "score", "presence", "vis"]
                    .into_iter()
                    .find(|k| value.get(k).is_some());
                let conf = conf_key.map(c).transpose()?;
                Ok((Vec3::new(c("x")?, c("y")?, c("z")?), conf))
            }
            _ => Err(invalid("a point is [x, y, z], [x, y, z, c], {x, y, z} or null", path)),
        }
    }

    fn parse_object(root: &Json) -> Result<Keypoints, KeypointError> {
        let frames = ["frames", "keypoints", "positions"]
            .into_iter()
            .find_map(|k| root.get(k).map(|v| (k, v)));
        let Some((key, Json::Array(frames))) = frames else {
            return Err(invalid("the object has no `frames` array", "frames"));
        };
        let names = match root.get("names").or_else(|| root.get("joints")) {
            None | Some(Json::Null) => None,
            Some(Json::Array(items)) => Some(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, n)| match n {
                        Json::String(s) => Ok(s.clone()),
                        _ => Err(invalid("a joint name is not a string", format!("names[{i}]"))),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Some(_) => return Err(invalid("not an array of strings", "names")),
        };
        let mut k = Collected::default();
        for (f, frame) in frames.iter().enumerate() {
            let Json::Array(points) = frame else {
                return Err(invalid("not an array of points", format!("{key}[{f}]")));
            };
            k.frame(points, &format!("{key}[{f}]"))?;
        }
        if k.joints.is_none() {
            k.joints = names.as_ref().map(Vec::len);
        }
        let (joints, frame_count) = (k.joints.unwrap_or(0), frames.len());
        if let Some(Json::Array(rows)) = root.get("confidence") {
            let mut confidence = Vec::with_capacity(k.positions.len());
            if rows.len() != frame_count {
                let message = format!("{} rows for {frame_count} frames", rows.len());
                return Err(invalid(message, "confidence"));
            }
            for (f, row) in rows.iter().enumerate() {
                let path = format!("confidence[{f}]");
                match row {
                    Json::Array(cs) if cs.len() == joints => {
                        for (j, c) in cs.iter().enumerate() {
                            confidence.push(coordinate(Some(c), &format!("{path}[{j}]"))?);
                        }
                    }
                    _ => return Err(invalid(format!("not an array of {joints} numbers"), path)),
                }
            }
            k.confidence = confidence;
            k.any_confidence = true;
        }
        let mut keypoints = k.finish(names)?;
        keypoints.fps = match root.get("fps") {
            None | Some(Json::Null) => None,
            Some(Json::Number(fps)) if super::super::usable_fps(*fps) => Some(*fps),
            Some(_) => return Err(invalid(super::super::BAD_FPS, "fps")),
        };
        if let Some(Json::String(units)) = root.get("units") {
            keypoints.units =
                Some(Units::parse(units).ok_or_else(|| invalid("unknown units", "units"))?);
        }
        if let Some(Json::String(up)) = root.get("up") {
            keypoints.up = Some(UpAxis::parse(up).ok_or_else(|| invalid("unknown axis", "up"))?);
        }
        Ok(keypoints)
    }

    /// One object per frame, keyed by joint name; a joint absent from a frame is missing there.
    fn parse_named_frames(frames: &[Json], input_len: usize) -> Result<Keypoints, KeypointError> {
        let mut names: Vec<String> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut rows: Vec<Vec<(usize, Vec3, Option<f32>)>> = Vec::with_capacity(frames.len());
        for (f, frame) in frames.iter().enumerate() {
            let Json::Object(entries) = frame else {
                return Err(invalid("not an object of named points", format!("[{f}]")));
            };
            let mut row = Vec::with_capacity(entries.len());
            for (name, value) in entries {
                // Frame numbers, times and labels beside the points are not joints.
                if matches!(value, Json::Number(_) | Json::String(_) | Json::Bool) {
                    continue;
                }
                let (p, c) = point_of(value, &format!("[{f}].{name}"))?;
                let j = *index.entry(name).or_insert_with(|| {
                    names.push(name.clone());
                    names.len() - 1
                });
                row.push((j, p, c));
            }
            rows.push(row);
        }
        let joints = names.len();
        // A joint left out of a frame costs the file nothing and the result a point.
        super::super::check_points(FORMAT, rows.len(), joints, input_len)?;
        let mut positions = vec![Vec3::NAN; rows.len() * joints];
        let any_confidence = rows.iter().flatten().any(|(_, _, c)| c.is_some());
        let mut confidence = if any_confidence { vec![1.0; positions.len()] } else { Vec::new() };
        for (f, row) in rows.into_iter().enumerate() {
            for (j, p, c) in row {
                positions[f * joints + j] = p;
                if let Some(c) = c {
                    confidence[f * joints + j] = c;
                }
            }
        }
        Ok(Keypoints {
            frame_count: frames.len(),
            joint_count: joints,
            positions,
            confidence: any_confidence.then_some(confidence),
            names: Some(names),
            ..Keypoints::default()
        })
    }

    pub(in super::super) fn write(keypoints: &Keypoints, out: &mut dyn Write) -> io::Result<()> {
        let number = |v: f32| if v.is_finite() { v.to_string() } else { "null".to_string() };
        write!(out, "{{")?;
        if let Some(fps) = keypoints.fps {
            write!(out, "\"fps\": {fps}, ")?;
        }
        if let Some(units) = keypoints.units {
            let name = match units {
                Units::Millimetres => "mm".to_string(),
                Units::Centimetres => "cm".to_string(),
                Units::Metres => "m".to_string(),
                other => other.metres().to_string(),
            };
            write!(out, "\"units\": \"{name}\", ")?;
        }
        if let Some(up) = keypoints.up {
            write!(out, "\"up\": \"{}\", ", up.label())?;
        }
        if let Some(names) = &keypoints.names {
            write!(out, "\"names\": {}, ", serde_json::to_string(names)?)?;
        }
        writeln!(out, "\"frames\": [")?;
        let j = keypoints.joint_count;
        for f in 0..keypoints.frame_count {
            let points: Vec<String> = keypoints
                .frame(f)
                .iter()
                .map(|p| match p.to_array().map(number) {
                    [x, y, z] if x == "null" && y == "null" && z == "null" => "null".into(),
                    [x, y, z] => format!("[{x}, {y}, {z}]"),
                })
                .collect();
            let sep = if f + 1 < keypoints.frame_count { "," } else { "" };
            writeln!(out, "  [{}]{sep}", points.join(", "))?;
        }
        write!(out, "]")?;
        if let Some(confidence) = &keypoints.confidence {
            writeln!(out, ", \"confidence\": [")?;
            for (f, row) in confidence.chunks(j.max(1)).enumerate() {
                let cells: Vec<String> = row.iter().map(|&c| number(c)).collect();
                let sep = if f + 1 < keypoints.frame_count { "," } else { "" };
                writeln!(out, "  [{}]{sep}", cells.join(", "))?;
            }
            write!(out, "]")?;
        }
        writeln!(out, "}}")
    }
}
