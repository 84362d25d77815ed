//! Scanning a whole VMD's layout: the header, then the sections, strictly or with lenient
//! repairs. It sits above both the section scan (`layout.rs`) and the recovery (`repair.rs`), so
//! that neither of those imports the other's caller.

use super::layout::{
    scan_sections, Layout, ReadOptions, Version, SIGNATURE_LEN, SIGNATURE_STEM, SIGNATURE_V1,
    SIGNATURE_V2,
};
use super::repair::{repair_sections, Repair};
use crate::error::{Error, ErrorKind};

/// Scans `data`'s layout. Strict scanning fails on any damage; lenient scanning repairs it.
pub fn scan(data: &[u8], options: ReadOptions) -> Result<(Layout, Vec<Repair>), Error> {
    let mut repairs = Vec::new();
    let version = scan_header(data, options, &mut repairs)?;
    let header_len = version.header_len();
    match scan_sections(data, header_len, 0, &[]) {
        Ok((sections, end)) => Ok((Layout { version, sections, end }, repairs)),
        Err(err) if !options.lenient => Err(err),
        Err(err) => {
            let (sections, end) = repair_sections(data, header_len, &err, &mut repairs);
            Ok((Layout { version, sections, end }, repairs))
        }
    }
}

fn scan_header(
    data: &[u8],
    options: ReadOptions,
    repairs: &mut Vec<Repair>,
) -> Result<Version, Error> {
    let head = &data[..data.len().min(SIGNATURE_LEN)];
    let is_cut_signature =
        |sig: &[u8]| head.len() < 25 && !head.is_empty() && sig.starts_with(head);
    if is_cut_signature(SIGNATURE_V2) || is_cut_signature(SIGNATURE_V1) {
        let kind = ErrorKind::TruncatedHeader { needed: SIGNATURE_LEN, available: data.len() };
        return Err(Error::new(kind, data.len()));
    }
    let version = match Version::from_signature(head) {
        Some(version) => version,
        None if options.lenient && head.starts_with(SIGNATURE_STEM) => {
            let sig = String::from_utf8_lossy(head).trim_end_matches('\0').to_string();
            repairs.push(Repair::UnknownSignature { signature: sig });
            Version::V2
        }
        None => {
            let kind = ErrorKind::NotVmd {
                what: describe_non_vmd(data),
                vmd_like: head.starts_with(SIGNATURE_STEM),
            };
            return Err(Error::new(kind, 0));
        }
    };
    if data.len() < version.header_len() {
        let kind =
            ErrorKind::TruncatedHeader { needed: version.header_len(), available: data.len() };
        return Err(Error::new(kind, data.len()));
    }
    Ok(version)
}

/// Says what bytes that are not a VMD look like, so the error helps.
fn describe_non_vmd(data: &[u8]) -> String {
    let head = &data[..data.len().min(64)];
    if data.is_empty() {
        return "the file is empty".into();
    }
    if data.starts_with(b"version https://git-lfs") {
        return "a Git LFS pointer, not the file's content".into();
    }
    if data.starts_with(SIGNATURE_STEM) {
        let sig = String::from_utf8_lossy(&head[..head.len().min(30)]);
        return format!("unknown signature {:?}", sig.trim_end_matches('\0'));
    }
    // A file of a known kind is named as what it is, in the words every front end uses.
    let kind = crate::FileKind::detect(data);
    match kind {
        crate::FileKind::Text | crate::FileKind::Binary | crate::FileKind::Json => {}
        kind if kind.is_motion() => return format!("this is {kind}, not a VMD"),
        found => return crate::WrongKind { found, expected: crate::Expected::Motion }.to_string(),
    }
    // Text, ASCII or UTF-8 (an HTML page or README often has non-ASCII text near its start);
    // the 64-byte window may end inside a character.
    let text = match std::str::from_utf8(head) {
        Ok(text) => Some(text),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok(),
        Err(_) => None,
    };
    let is_text =
        |t: &str| !t.is_empty() && t.chars().all(|c| !c.is_control() || c.is_whitespace());
    if let Some(text) = text.filter(|t| is_text(t)) {
        let line = text.lines().next().unwrap_or("");
        return format!("text starting {line:?}");
    }
    format!("the signature is {:02x?}", &head[..head.len().min(25)])
}
