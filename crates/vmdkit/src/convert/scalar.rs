//! Text forms of single values shared by the JSON and CSV formats: hex bytes, exact floats,
//! curves, physics toggles, flags and encoding labels.
//!
//! Each format uses its own subset, so with only one of the `json` and `csv` features on some
//! of these have no caller; that is expected, not dead code.
#![cfg_attr(not(all(feature = "json", feature = "csv")), allow(dead_code, unused_imports))]

use crate::curve::Curve;
use crate::format::PhysicsToggle;
use crate::text::TextEncoding;
use std::fmt::{self, Write as _};

/// Lowercase hex without separators: byte offsets stay easy to count against a hex dump.
pub(crate) struct Hex<'a>(pub &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut buf = [0u8; 128];
        for chunk in self.0.chunks(buf.len() / 2) {
            for (i, &b) in chunk.iter().enumerate() {
                buf[2 * i] = DIGITS[(b >> 4) as usize];
                buf[2 * i + 1] = DIGITS[(b & 15) as usize];
            }
            f.write_str(std::str::from_utf8(&buf[..2 * chunk.len()]).unwrap())?;
        }
        Ok(())
    }
}

/// Hands each byte of hex text to `put`, returning how many there were; nothing is allocated,
/// since readers decode a raw field for every key of a big motion.
fn unhex_each(text: &str, mut put: impl FnMut(usize, u8)) -> Result<usize, String> {
    let pairs = text.trim().as_bytes().chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return Err(format!("hex text has an odd number of digits ({})", text.trim().len()));
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(format!("{:?} is not a hex digit", c as char)),
    };
    let count = pairs.len();
    for (i, p) in pairs.enumerate() {
        put(i, digit(p[0])? << 4 | digit(p[1])?);
    }
    Ok(count)
}

pub(crate) fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    unhex_append(text, &mut bytes)?;
    Ok(bytes)
}

/// Appends the bytes of hex text to `out`.
pub(crate) fn unhex_append(text: &str, out: &mut Vec<u8>) -> Result<(), String> {
    out.reserve(text.len() / 2);
    unhex_each(text, |_, b| out.push(b)).map(drop)
}

/// Hex text of exactly `N` bytes.
pub(crate) fn unhex_array<const N: usize>(text: &str) -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    let len = unhex_each(text, |i, b| {
        if let Some(slot) = bytes.get_mut(i) {
            *slot = b;
        }
    })?;
    if len != N {
        return Err(format!("expected {N} bytes of hex, found {len}"));
    }
    Ok(bytes)
}

/// A float JSON and CSV cannot hold as a number (NaN, infinities), written as its bit pattern so
/// NaN payloads survive too.
pub(crate) fn f32_bits(value: f32) -> String {
    format!("0x{:08x}", value.to_bits())
}

/// Parses a float given as text: a decimal, a bit pattern `0x7fc00000`, or `NaN` / `inf`.
pub(crate) fn parse_f32(text: &str) -> Result<f32, String> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if (1..=8).contains(&hex.len()) {
            if let Ok(bits) = u32::from_str_radix(hex, 16) {
                return Ok(f32::from_bits(bits));
            }
        }
        return Err(format!(
            "{:?} is not a 32-bit float bit pattern (0x followed by 8 hex digits)",
            crate::shown::Shown(text)
        ));
    }
    match text.parse::<f32>() {
        Ok(v) if v.is_infinite() && !text.to_ascii_lowercase().contains("inf") => {
            Err(format!("{text} is out of the 32-bit float range"))
        }
        Ok(v) => Ok(v),
        Err(_) => Err(format!("{:?} is not a number", crate::shown::Shown(text))),
    }
}

/// Converts a JSON number to f32, refusing finite values that only fit as infinity.
pub(crate) fn f32_from_f64(value: f64) -> Result<f32, String> {
    let narrowed = value as f32;
    if value.is_finite() && !narrowed.is_finite() {
        return Err(format!("{value} is out of the 32-bit float range"));
    }
    Ok(narrowed)
}

/// The f64 nearest to the shortest decimal that reads back as `value`, so a JSON value tree
/// prints `0.1` rather than `0.10000000149011612` and still reads back as the same f32.
pub(crate) fn f32_as_decimal_f64(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(value as f64)
}

/// Appends a float as a CSV cell: the shortest decimal that reads back exactly, in exponent
/// form only for magnitudes a spreadsheet would otherwise show as a long run of zeros.
pub(crate) fn write_f32(out: &mut String, value: f32) {
    if !value.is_finite() {
        out.push_str(&f32_bits(value));
    } else if value == 0.0 || (1e-4..1e9).contains(&value.abs()) {
        write!(out, "{value}").unwrap();
    } else {
        write!(out, "{value:e}").unwrap();
    }
}

/// Parses `x1 y1 x2 y2` (spaces, commas or semicolons between the numbers).
pub(crate) fn parse_curve(text: &str) -> Result<Curve, String> {
    let mut numbers = [0u8; 4];
    let mut parts =
        text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|p| !p.is_empty());
    let complete = numbers
        .iter_mut()
        .all(|n| parts.next().and_then(|p| p.parse().ok()).map(|v| *n = v).is_some());
    if complete && parts.next().is_none() {
        Ok(Curve::from_points(numbers))
    } else {
        Err(format!(
            "{:?} is not a curve: expected four integers 0-255 \"x1 y1 x2 y2\"",
            crate::shown::Shown(text)
        ))
    }
}

pub(crate) fn write_curve(out: &mut String, c: Curve) {
    write!(out, "{} {} {} {}", c.x1, c.y1, c.x2, c.y2).unwrap();
}

/// `on`, `off`, or `unknown A B` with the two raw bytes.
pub(crate) fn physics_text(p: PhysicsToggle) -> String {
    match p {
        PhysicsToggle::On => "on".into(),
        PhysicsToggle::Off => "off".into(),
        PhysicsToggle::Unknown(a, b) => format!("unknown {a} {b}"),
    }
}

pub(crate) fn parse_physics(text: &str) -> Result<PhysicsToggle, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [w] if w.eq_ignore_ascii_case("on") => Ok(PhysicsToggle::On),
        [w] if w.eq_ignore_ascii_case("off") => Ok(PhysicsToggle::Off),
        [w, a, b] if w.eq_ignore_ascii_case("unknown") => match (a.parse(), b.parse()) {
            (Ok(a), Ok(b)) => Ok(PhysicsToggle::Unknown(a, b)),
            _ => Err(format!(
                "{:?}: the two bytes after `unknown` must be 0-255",
                crate::shown::Shown(text)
            )),
        },
        _ => Err(format!(
            "{:?} is not a physics toggle: expected on, off or \"unknown A B\"",
            crate::shown::Shown(text)
        )),
    }
}

/// Flags in the spellings spreadsheets produce (`TRUE`, `1`, ...).
pub(crate) fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(format!("{:?} is not true or false", crate::shown::Shown(text))),
    }
}

pub(crate) fn parse_encoding(text: &str) -> Result<TextEncoding, String> {
    match text.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        "shift_jis" | "sjis" | "cp932" => Ok(TextEncoding::ShiftJis),
        "gbk" | "gb18030" => Ok(TextEncoding::Gbk),
        "utf_8" | "utf8" => Ok(TextEncoding::Utf8),
        _ => Err(format!(
            "unknown encoding {:?}: expected shift_jis, gbk or utf-8",
            crate::shown::Shown(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(unhex(&Hex(&bytes).to_string()).unwrap(), bytes);
        assert_eq!(unhex("0A ").unwrap(), vec![10]);
        assert!(unhex("abc").is_err());
        assert!(unhex("zz").is_err());
        assert!(unhex_array::<2>("00").is_err());
    }

    #[test]
    fn float_text_is_exact() {
        for v in [0.1f32, -0.0, 1e-30, f32::MAX, f32::MIN_POSITIVE, 1e-45, 123456.79, 3e9] {
            let mut cell = String::new();
            write_f32(&mut cell, v);
            assert_eq!(parse_f32(&cell).unwrap().to_bits(), v.to_bits(), "{cell}");
        }
        let nan = f32::from_bits(0x7fc0_1234);
        assert_eq!(parse_f32(&f32_bits(nan)).unwrap().to_bits(), 0x7fc0_1234);
        assert_eq!(parse_f32("-inf").unwrap(), f32::NEG_INFINITY);
        assert!(parse_f32("1e39").is_err());
        assert!(parse_f32("0x123456789").is_err());
        assert!(f32_from_f64(1e39).is_err());
        assert_eq!(f32_as_decimal_f64(0.1), 0.1f64);
    }

    #[test]
    fn curves_physics_and_flags_parse() {
        assert_eq!(parse_curve("20 20, 107;107").unwrap(), Curve::LINEAR);
        assert!(parse_curve("20 20 107").is_err());
        assert!(parse_curve("20 20 107 300").is_err());
        for p in [PhysicsToggle::On, PhysicsToggle::Off, PhysicsToggle::Unknown(20, 21)] {
            assert_eq!(parse_physics(&physics_text(p)).unwrap(), p);
        }
        assert!(parse_physics("maybe").is_err());
        assert!(parse_bool("TRUE").unwrap());
        assert!(!parse_bool("0").unwrap());
        assert_eq!(parse_encoding("UTF-8").unwrap(), TextEncoding::Utf8);
    }
}
