//! Wide CSV keypoints: one row per frame, `frame`, an optional `time`/`time_s` column, then
//! `<joint>_x`, `<joint>_y`, `<joint>_z` per joint and optionally `<joint>_vis` (or
//! `_visibility`, `_conf`, `_confidence`, `_score`). Joints are named and ordered by the
//! header; empty cells are missing values. Reading needs the `csv` feature.

use super::{KeypointError, KeypointErrorKind as Kind, KeypointFormat};
use crate::keypoints::Keypoints;

#[cfg(not(feature = "csv"))]
pub(super) fn parse(_bytes: &[u8]) -> Result<Keypoints, KeypointError> {
    let kind = Kind::FeatureDisabled { format: KeypointFormat::Csv, feature: "csv" };
    Err(KeypointError::new(KeypointFormat::Csv, kind))
}

#[cfg(feature = "csv")]
pub(super) use with_csv::{parse, write};

#[cfg(feature = "csv")]
mod with_csv {
    use super::*;
    use glam::Vec3;
    use std::collections::HashMap;
    use std::io::{self, Write};

    const FORMAT: KeypointFormat = KeypointFormat::Csv;
    const CONFIDENCE_SUFFIXES: [&str; 6] =
        ["_vis", "_visibility", "_conf", "_confidence", "_score", "_presence"];

    /// What one header column holds.
    #[derive(Clone, Copy)]
    enum Column {
        Frame,
        Time,
        /// Joint index and axis (0, 1, 2).
        Axis(usize, usize),
        Confidence(usize),
        /// An unnamed column (a pandas index): ignored.
        Skip,
    }

    /// Joint names in the order the header first gives them, each found again by hashing: a
    /// header may have a million columns.
    #[derive(Default)]
    struct Joints {
        names: Vec<String>,
        index: HashMap<String, usize>,
    }

    impl Joints {
        fn index(&mut self, base: &str) -> usize {
            if let Some(&j) = self.index.get(base) {
                return j;
            }
            self.names.push(base.to_string());
            self.index.insert(base.to_string(), self.names.len() - 1);
            self.names.len() - 1
        }
    }

    fn column(name: &str, joints: &mut Joints) -> Option<Column> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "frame" | "frame#" | "frame_index" => return Some(Column::Frame),
            "time" | "time_s" | "timestamp" | "t" => return Some(Column::Time),
            "" => return Some(Column::Skip),
            _ => {}
        }
        let mut joint = |base: &str| joints.index(base);
        for (axis, suffix) in ["_x", "_y", "_z"].iter().enumerate() {
            if lower.ends_with(suffix) && name.len() > 2 {
                return Some(Column::Axis(joint(&name[..name.len() - 2]), axis));
            }
        }
        CONFIDENCE_SUFFIXES
            .iter()
            .find(|s| lower.ends_with(*s) && name.len() > s.len())
            .map(|s| Column::Confidence(joint(&name[..name.len() - s.len()])))
    }

    pub(in super::super) fn parse(bytes: &[u8]) -> Result<Keypoints, KeypointError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(true)
            .has_headers(true)
            .from_reader(bytes);
        let syntax = |e: csv::Error| {
            let line = e.position().map(|p| p.line());
            let err = KeypointError::new(FORMAT, Kind::Syntax(e.to_string()));
            match line {
                Some(line) => err.at_line(line, None),
                None => err,
            }
        };
        let header = reader.headers().map_err(syntax)?.clone();
        let mut joints = Joints::default();
        let mut columns = Vec::with_capacity(header.len());
        for (i, name) in header.iter().enumerate() {
            let col = column(name, &mut joints).ok_or_else(|| {
                let message = "not frame, time, or <joint>_x/_y/_z/_vis".to_string();
                KeypointError::new(FORMAT, Kind::Invalid(message))
                    .at_line(1, Some(i as u64 + 1))
                    .field(name)
            })?;
            columns.push(col);
        }
        let names = joints.names;
        let joints = names.len();
        let mut seen = vec![[false; 4]; joints];
        for col in &columns {
            match *col {
                Column::Axis(j, a) => seen[j][a] = true,
                Column::Confidence(j) => seen[j][3] = true,
                _ => {}
            }
        }
        if let Some((j, _)) = seen.iter().enumerate().find(|(_, s)| !(s[0] && s[1] && s[2])) {
            let message = format!("joint `{}` lacks one of its _x, _y, _z columns", names[j]);
            return Err(KeypointError::new(FORMAT, Kind::Invalid(message)).at_line(1, None));
        }
        let has_confidence = seen.iter().any(|s| s[3]);
        let has_time = columns.iter().any(|c| matches!(c, Column::Time));

        let (mut positions, mut confidence, mut times) = (Vec::new(), Vec::new(), Vec::new());
        let mut record = csv::StringRecord::new();
        while reader.read_record(&mut record).map_err(syntax)? {
            let line = record.position().map_or(0, |p| p.line());
            if record.len() != columns.len() {
                let kind = Kind::Ragged { expected: columns.len(), found: record.len() };
                return Err(KeypointError::new(FORMAT, kind).at_line(line, None));
            }
            let start = positions.len();
            positions.resize(start + joints, Vec3::NAN);
            if has_confidence {
                // Joints without a confidence column count as fully confident.
                confidence.resize(start + joints, 1.0);
            }
            for (i, (cell, col)) in record.iter().zip(&columns).enumerate() {
                // Times are parsed as f64 and coordinates as f32, each directly, so that
                // written values read back exactly.
                fn number<T: std::str::FromStr>(cell: &str, nan: T) -> Result<T, ()> {
                    if cell.is_empty() {
                        return Ok(nan);
                    }
                    cell.parse().map_err(|_| ())
                }
                let bad = |()| {
                    let kind =
                        Kind::Syntax(format!("`{}` is not a number", crate::shown::Shown(cell)));
                    KeypointError::new(FORMAT, kind)
                        .at_line(line, Some(i as u64 + 1))
                        .field(&header[i])
                };
                match *col {
                    Column::Axis(j, a) => {
                        positions[start + j][a] = number(cell, f32::NAN).map_err(bad)?
                    }
                    Column::Confidence(j) => {
                        confidence[start + j] = number(cell, f32::NAN).map_err(bad)?
                    }
                    Column::Time => times.push(number(cell, f64::NAN).map_err(bad)?),
                    Column::Frame | Column::Skip => {}
                }
            }
        }
        let frame_count = positions.len().checked_div(joints).unwrap_or(0);
        Ok(Keypoints {
            frame_count,
            joint_count: joints,
            positions,
            confidence: has_confidence.then_some(confidence),
            names: Some(names),
            fps: if has_time { super::super::fps_from_times(&times) } else { None },
            units: None,
            up: None,
        })
    }

    pub(in super::super) fn write(keypoints: &Keypoints, out: &mut dyn Write) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        let names = joint_names(keypoints);
        let mut header = vec!["frame".to_string()];
        if keypoints.fps.is_some() {
            header.push("time_s".into());
        }
        for name in &names {
            header.extend(["x", "y", "z"].map(|a| format!("{name}_{a}")));
            if keypoints.confidence.is_some() {
                header.push(format!("{name}_vis"));
            }
        }
        w.write_record(&header)?;
        let cell = |v: f32| if v.is_nan() { String::new() } else { v.to_string() };
        let mut row = Vec::with_capacity(header.len());
        for f in 0..keypoints.frame_count {
            row.clear();
            row.push(f.to_string());
            if let Some(fps) = keypoints.fps {
                row.push((f as f64 / fps).to_string());
            }
            for j in 0..keypoints.joint_count {
                let i = f * keypoints.joint_count + j;
                row.extend(keypoints.positions[i].to_array().map(cell));
                if let Some(c) = &keypoints.confidence {
                    row.push(cell(c[i]));
                }
            }
            w.write_record(&row)?;
        }
        w.flush()
    }

    /// The file's names, or `j0`, `j1`, … when it had none.
    fn joint_names(keypoints: &Keypoints) -> Vec<String> {
        match &keypoints.names {
            Some(names) => names.clone(),
            None => (0..keypoints.joint_count).map(|j| format!("j{j}")).collect(),
        }
    }
}
