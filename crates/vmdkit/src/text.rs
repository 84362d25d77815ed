//! Fixed-width name fields and the text encodings found in real VMD files.
//!
//! A name field is kept as its raw bytes, everything after the NUL included, so that a file can be
//! written back byte for byte. Decoding is a separate, explicit step: MMD writes names with the
//! Windows ANSI code page, which is CP932 on Japanese systems, but files made on Chinese systems
//! carry GBK names and some tools write UTF-8. [`detect_encoding`] chooses one encoding per file.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// The byte MMD fills a name field with after the terminating NUL.
pub const MMD_PAD: u8 = 0xFD;

/// A text encoding a VMD's names can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TextEncoding {
    /// CP932, Shift-JIS as Windows writes it (MMD's own encoding).
    #[default]
    ShiftJis,
    /// GBK / GB18030, from files written on Chinese systems.
    Gbk,
    /// UTF-8, written by some tools.
    #[serde(rename = "utf-8")]
    Utf8,
}

/// Text that is none of the names an option accepts (`"stron".parse::<Smoothing>()`), with
/// what it accepts, for a front end to word its own message and list its choices. Every option
/// enum that reads a name (`Smoothing`, `FloorMode`, `TextEncoding`, `EulerOrder`, `UpAxis`,
/// `Units`) gives this from its `FromStr` and lists its names in a `NAMES` constant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is none of {}{}", accepted.join(", "), number.map_or(String::new(), |n| format!(", nor {n}")))]
pub struct UnknownName {
    /// The text given.
    pub given: String,
    /// The names accepted.
    pub accepted: &'static [&'static str],
    /// The number accepted instead of a name, if one is ("a positive cutoff in hertz").
    pub number: Option<&'static str>,
}

impl UnknownName {
    /// `given` is none of `accepted` (and not a number).
    pub fn new(given: &str, accepted: &'static [&'static str]) -> Self {
        UnknownName { given: given.to_string(), accepted, number: None }
    }
}

impl TextEncoding {
    /// The names [`TextEncoding::from_str`] reads: each encoding's [`label`](Self::label).
    pub const NAMES: &'static [&'static str] = &["shift_jis", "gbk", "utf-8"];

    /// The name used in reports and JSON: `shift_jis`, `gbk` or `utf-8`.
    pub fn label(self) -> &'static str {
        match self {
            TextEncoding::ShiftJis => "shift_jis",
            TextEncoding::Gbk => "gbk",
            TextEncoding::Utf8 => "utf-8",
        }
    }

    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            TextEncoding::ShiftJis => encoding_rs::SHIFT_JIS,
            TextEncoding::Gbk => encoding_rs::GBK,
            TextEncoding::Utf8 => encoding_rs::UTF_8,
        }
    }

    /// Decodes `bytes` (a name up to its NUL) as this encoding. `fills_field` says the name
    /// has no NUL, i.e. it may have been cut at the field's width.
    pub fn decode(self, bytes: &[u8], fills_field: bool) -> Decoded<'_> {
        let codec = self.codec();
        if let Some(text) = codec.decode_without_bom_handling_and_without_replacement(bytes) {
            return Decoded { text, status: DecodeStatus::Ok };
        }
        // A name cut at the field's width may end inside a multibyte character: decode the
        // whole characters and say so, rather than calling the name undecodable.
        let max_cut = if fills_field { 3.min(bytes.len()) } else { 0 };
        for cut in 1..=max_cut {
            let head = &bytes[..bytes.len() - cut];
            if let Some(text) = codec.decode_without_bom_handling_and_without_replacement(head) {
                if is_incomplete_tail(self, &bytes[bytes.len() - cut..]) {
                    return Decoded { text, status: DecodeStatus::CutMidCharacter };
                }
            }
        }
        let (text, _) = codec.decode_without_bom_handling(bytes);
        Decoded { text, status: DecodeStatus::Invalid }
    }

    /// Encodes `text` into a field of `width` bytes, cutting on a character boundary.
    pub fn encode(self, text: &str, width: usize) -> Encoded {
        let mut out = Vec::with_capacity(width);
        let mut status = EncodeStatus::Ok;
        let mut encoder = self.codec().new_encoder();
        let mut buf = [0u8; 8];
        let mut char_buf = [0u8; 4];
        for ch in text.chars() {
            let piece = ch.encode_utf8(&mut char_buf);
            let (result, _, written) =
                encoder.encode_from_utf8_without_replacement(piece, &mut buf, false);
            let bytes: &[u8] = match result {
                encoding_rs::EncoderResult::InputEmpty => &buf[..written],
                _ => {
                    status = EncodeStatus::Unencodable;
                    b"?"
                }
            };
            if out.len() + bytes.len() > width {
                status = if status == EncodeStatus::Unencodable {
                    EncodeStatus::Unencodable
                } else {
                    EncodeStatus::Shortened
                };
                break;
            }
            out.extend_from_slice(bytes);
        }
        Encoded { bytes: out, status }
    }
}

impl FromStr for TextEncoding {
    type Err = UnknownName;

    /// An encoding by its [`label`](Self::label), exactly: `shift_jis`, `gbk` or `utf-8`.
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        match text {
            "shift_jis" => Ok(TextEncoding::ShiftJis),
            "gbk" => Ok(TextEncoding::Gbk),
            "utf-8" => Ok(TextEncoding::Utf8),
            _ => Err(UnknownName::new(text, Self::NAMES)),
        }
    }
}

fn is_incomplete_tail(encoding: TextEncoding, tail: &[u8]) -> bool {
    match encoding {
        TextEncoding::ShiftJis => tail.len() == 1 && matches!(tail[0], 0x81..=0x9F | 0xE0..=0xFC),
        TextEncoding::Gbk => tail.iter().all(|&b| b >= 0x30) && tail[0] >= 0x81,
        TextEncoding::Utf8 => std::str::from_utf8(tail).is_err_and(|e| e.error_len().is_none()),
    }
}

/// What happened when a name was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DecodeStatus {
    /// Every byte decoded as a valid character.
    Ok,
    /// The field ended inside a multibyte character; the whole characters were decoded.
    CutMidCharacter,
    /// The bytes are not valid in the encoding; invalid sequences became U+FFFD.
    Invalid,
}

/// A decoded name and how cleanly it decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The decoded text; borrowed from the field when the bytes are already valid UTF-8.
    pub text: Cow<'a, str>,
    /// Whether the text is exact, cut at the field's end, or had invalid bytes replaced.
    pub status: DecodeStatus,
}

/// What happened when text was encoded into a name field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EncodeStatus {
    /// The whole text was encoded and fits the field.
    Ok,
    /// The text did not fit and was cut on a character boundary.
    Shortened,
    /// A character has no form in the encoding and was written as `?`.
    Unencodable,
}

/// Text encoded for a name field (without the NUL or padding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The encoded name, at most the field's width, with no NUL or padding.
    pub bytes: Vec<u8>,
    /// Whether the whole text made it into `bytes` unchanged.
    pub status: EncodeStatus,
}

/// A fixed-width name field exactly as stored in the file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct RawName<const N: usize>(pub [u8; N]);

/// A 15-byte bone or morph name field.
pub type KeyName = RawName<15>;
/// A 20-byte model name or IK name field.
pub type LongName = RawName<20>;

impl<const N: usize> RawName<N> {
    /// Views a field in place, without copying it.
    #[inline]
    pub fn from_ref(field: &[u8; N]) -> &Self {
        // SAFETY: RawName is repr(transparent) over [u8; N].
        unsafe { &*(field as *const [u8; N] as *const Self) }
    }

    /// The name's bytes: the field up to its first NUL (the whole field when it has none).
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        &self.0[..len]
    }

    /// The field as MMD writes it: `name`, a NUL, then 0xFD to the end. Longer names are cut.
    pub fn from_bytes_mmd(name: &[u8]) -> Self {
        let mut field = [MMD_PAD; N];
        let len = name.len().min(N);
        field[..len].copy_from_slice(&name[..len]);
        if len < N {
            field[len] = 0;
        }
        RawName(field)
    }

    /// Encodes `text` as CP932 into a field padded as MMD pads it.
    pub fn encode(text: &str) -> (Self, EncodeStatus) {
        Self::encode_as(text, TextEncoding::ShiftJis)
    }

    /// Encodes `text` in `encoding` into a field padded as MMD pads it.
    pub fn encode_as(text: &str, encoding: TextEncoding) -> (Self, EncodeStatus) {
        let encoded = encoding.encode(text, N);
        (Self::from_bytes_mmd(&encoded.bytes), encoded.status)
    }

    /// Decodes the name in `encoding`.
    pub fn decode(&self, encoding: TextEncoding) -> Decoded<'_> {
        encoding.decode(self.bytes(), self.fills_field())
    }

    /// True when the name has no NUL: it may have been cut at the field's width.
    pub fn fills_field(&self) -> bool {
        !self.0.contains(&0)
    }

    /// The name as [`detect_encoding`] takes it.
    pub fn for_detection(&self) -> (&[u8], bool) {
        (self.bytes(), self.fills_field())
    }

    /// Decodes as CP932, replacing what cannot be decoded.
    pub fn to_string_lossy(&self) -> String {
        self.decode(TextEncoding::ShiftJis).text.into_owned()
    }

    /// True when the bytes after the name are what a plain MMD-style write would produce.
    pub fn has_mmd_padding(&self) -> bool {
        *self == Self::from_bytes_mmd(self.bytes())
    }
}

impl<const N: usize> Default for RawName<N> {
    fn default() -> Self {
        Self::from_bytes_mmd(b"")
    }
}

impl<const N: usize> fmt::Debug for RawName<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())
    }
}

impl<const N: usize> fmt::Display for RawName<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// Chooses the encoding of a file's names: CP932 unless some name is invalid CP932 and every
/// name is valid UTF-8 or GBK (tried in that order, UTF-8 being the stricter test).
/// Each name is given as its bytes and whether it fills its field (see [`RawName::for_detection`]).
pub fn detect_encoding<'a>(names: impl Iterator<Item = (&'a [u8], bool)> + Clone) -> TextEncoding {
    let all_ok = |enc: TextEncoding| {
        names.clone().all(|(n, full)| enc.decode(n, full).status != DecodeStatus::Invalid)
    };
    if all_ok(TextEncoding::ShiftJis) {
        TextEncoding::ShiftJis
    } else if all_ok(TextEncoding::Utf8) {
        TextEncoding::Utf8
    } else if all_ok(TextEncoding::Gbk) {
        TextEncoding::Gbk
    } else {
        TextEncoding::ShiftJis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_name_reads_back() {
        for &name in TextEncoding::NAMES {
            assert_eq!(name.parse::<TextEncoding>().unwrap().label(), name);
        }
        for &name in crate::keypoints::UpAxis::NAMES {
            assert_eq!(name.parse::<crate::keypoints::UpAxis>().unwrap().label(), name);
        }
        for &name in crate::keypoints::Smoothing::NAMES {
            assert!(name.to_uppercase().parse::<crate::keypoints::Smoothing>().is_ok());
        }
        for &name in crate::keypoints::Units::NAMES {
            assert!(name.parse::<crate::keypoints::Units>().is_ok());
        }
        for &name in crate::skeleton::IkVariant::NAMES {
            assert!(name.parse::<crate::skeleton::IkVariant>().is_ok());
        }
        for &name in crate::bvh::EulerOrder::NAMES {
            assert!(name.parse::<crate::bvh::EulerOrder>().is_ok());
        }
        for &name in crate::retarget::FloorMode::NAMES {
            assert!(name.parse::<crate::retarget::FloorMode>().is_ok());
        }
        assert_eq!(
            "2.5".parse::<crate::keypoints::Smoothing>(),
            Ok(crate::keypoints::Smoothing::Custom { cutoff_hz: 2.5 })
        );
        let err = "sjis".parse::<TextEncoding>().unwrap_err();
        assert_eq!(err.to_string(), "\"sjis\" is none of shift_jis, gbk, utf-8");
        let err = "-1".parse::<crate::keypoints::Units>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"-1\" is none of mm, cm, m, nor a positive number of metres per unit"
        );
    }

    #[test]
    fn cp932_round_trip_and_mmd_padding() {
        let (name, status) = KeyName::encode("センター");
        assert_eq!(status, EncodeStatus::Ok);
        assert_eq!(name.bytes(), &[0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B]);
        assert_eq!(name.0[8], 0);
        assert!(name.0[9..].iter().all(|&b| b == MMD_PAD));
        assert_eq!(name.decode(TextEncoding::ShiftJis).text, "センター");
        assert!(name.has_mmd_padding());
    }

    #[test]
    fn long_names_are_cut_on_a_character_boundary() {
        // 8 double-byte characters = 16 bytes: only 7 fit in 15 bytes.
        let (name, status) = KeyName::encode("左足ＩＫ親左足ＩＫ");
        assert_eq!(status, EncodeStatus::Shortened);
        assert_eq!(name.bytes().len(), 14);
        assert_eq!(name.decode(TextEncoding::ShiftJis).status, DecodeStatus::Ok);
    }

    #[test]
    fn unencodable_characters_are_reported() {
        let (_, status) = KeyName::encode("😀");
        assert_eq!(status, EncodeStatus::Unencodable);
    }

    #[test]
    fn a_dangling_lead_byte_is_a_cut_not_an_error() {
        let field = RawName::<3>([0x83, 0x5A, 0x83]);
        let decoded = field.decode(TextEncoding::ShiftJis);
        assert_eq!(decoded.text, "セ");
        assert_eq!(decoded.status, DecodeStatus::CutMidCharacter);
        // With room left in the field, the same bytes were not cut: they are invalid.
        let field = RawName::<4>([0x83, 0x5A, 0x83, 0x00]);
        assert_eq!(field.decode(TextEncoding::ShiftJis).status, DecodeStatus::Invalid);
    }

    #[test]
    fn gbk_and_utf8_names_are_detected() {
        let gbk = KeyName::encode_as("左手腕", TextEncoding::Gbk).0;
        let ascii = KeyName::encode("abc").0;
        let names = [gbk.for_detection(), ascii.for_detection()];
        assert_eq!(detect_encoding(names.into_iter()), TextEncoding::Gbk);
        assert_eq!(gbk.decode(TextEncoding::Gbk).text, "左手腕");
        let utf8 = KeyName::encode_as("右ひじ", TextEncoding::Utf8).0;
        let names = [utf8.for_detection(), ascii.for_detection()];
        assert_eq!(detect_encoding(names.into_iter()), TextEncoding::Utf8);
        let plain = KeyName::encode("右ひじ").0;
        assert_eq!(detect_encoding([plain.for_detection()].into_iter()), TextEncoding::ShiftJis);
    }
}
