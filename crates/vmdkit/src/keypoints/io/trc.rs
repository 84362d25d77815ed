//! OpenSim marker trajectories (`.trc`): a `PathFileType` line, a line of header names
//! (`DataRate`, `CameraRate`, `NumFrames`, `NumMarkers`, `Units`, …) and one of their values,
//! the marker names (each over its three columns), an `X1 Y1 Z1 …` line, then tab-separated
//! rows `Frame# Time x y z …`. Blank cells and cells cut off at a row's end are missing markers.

use super::{KeypointError, KeypointErrorKind as Kind, KeypointFormat};
use crate::keypoints::{Keypoints, Units};
use glam::Vec3;

const FORMAT: KeypointFormat = KeypointFormat::Trc;

fn error(kind: Kind, line: usize) -> KeypointError {
    KeypointError::new(FORMAT, kind).at_line(line as u64, None)
}

pub(super) fn parse(bytes: &[u8]) -> Result<Keypoints, KeypointError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        KeypointError::new(FORMAT, Kind::Syntax(format!("not UTF-8: {e}")))
            .at_offset(e.valid_up_to())
    })?;
    // Numbered from 1; `\r\n` endings lose their `\r`.
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let mut next = |what: &str| {
        lines.next().ok_or_else(|| {
            KeypointError::new(FORMAT, Kind::WrongFormat(format!("the file ends before {what}")))
        })
    };
    let (n, first) = next("the PathFileType line")?;
    if !first.starts_with("PathFileType") {
        return Err(error(Kind::WrongFormat("the first line is not PathFileType".into()), n));
    }
    let (_, keys) = next("the header names")?;
    let (values_line, values) = next("the header values")?;
    let header: Vec<(&str, &str)> =
        keys.split('\t').map(str::trim).zip(values.split('\t').map(str::trim)).collect();
    let get = |key: &str| header.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| *v);
    let number = |key: &str| -> Result<Option<f64>, KeypointError> {
        match get(key) {
            None | Some("") => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                error(
                    Kind::Syntax(format!("`{}` is not a number", crate::shown::Shown(v))),
                    values_line,
                )
                .field(key)
            }),
        }
    };
    let rate = |key: &str| -> Result<Option<f64>, KeypointError> {
        match number(key)? {
            Some(r) if r.is_finite() && r > crate::math::MAX_FPS => {
                let kind = Kind::Invalid(format!("{r}: {}", super::BAD_FPS));
                Err(error(kind, values_line).field(key))
            }
            r => Ok(r.filter(|r| r.is_finite() && *r > 0.0)),
        }
    };
    let fps = rate("DataRate")?.or(rate("CameraRate")?);
    let units = match get("Units") {
        None | Some("") => None,
        Some(u) => Some(Units::parse(u).ok_or_else(|| {
            error(Kind::Invalid(format!("unknown units `{u}`")), values_line).field("Units")
        })?),
    };

    let (names_line, marker_row) = next("the marker names")?;
    let names: Vec<String> = marker_row
        .split('\t')
        .skip(2)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let markers = names.len();
    if let Some(declared) = number("NumMarkers")? {
        if declared != markers as f64 {
            let message = format!("NumMarkers is {declared} but the marker row names {markers}");
            return Err(error(Kind::Invalid(message), names_line).field("NumMarkers"));
        }
    }
    next("the X1 Y1 Z1 line")?;

    let mut positions = Vec::new();
    let mut frame_count = 0;
    let mut times = Vec::new();
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        // A row cut short still fills every marker: bounded by the file's size, not its rows.
        super::check_points(FORMAT, frame_count + 1, markers, bytes.len())
            .map_err(|e| e.at_line(n as u64, None))?;
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let values = cells.get(2..).unwrap_or(&[]);
        // Trailing blank cells (a final tab) are no marker.
        let used = values.iter().rposition(|c| !c.is_empty()).map_or(0, |i| i + 1);
        if used > markers * 3 {
            let kind = Kind::Ragged { expected: markers * 3 + 2, found: used + 2 };
            return Err(error(kind, n));
        }
        for (m, name) in names.iter().enumerate() {
            let mut p = Vec3::NAN;
            for a in 0..3 {
                let column = 2 + m * 3 + a;
                let cell = values.get(m * 3 + a).copied().unwrap_or("");
                if !cell.is_empty() {
                    p[a] = cell.parse().map_err(|_| {
                        KeypointError::new(
                            FORMAT,
                            Kind::Syntax(format!(
                                "`{}` is not a number",
                                crate::shown::Shown(cell)
                            )),
                        )
                        .at_line(n as u64, Some(column as u64 + 1))
                        .field(format!("{name}{}", ["X", "Y", "Z"][a]))
                    })?;
                }
            }
            positions.push(p);
        }
        times.extend(cells.get(1).and_then(|t| t.parse::<f64>().ok()));
        frame_count += 1;
    }
    Ok(Keypoints {
        frame_count,
        joint_count: markers,
        positions,
        confidence: None,
        names: Some(names),
        // Without a DataRate, the Time column says it when it is regular.
        fps: fps.or_else(|| super::fps_from_times(&times)),
        units,
        up: None,
    })
}
