//! The BVH reader: `HIERARCHY` (any number of roots, joints and End Sites, per-joint channel
//! lists of 0–6 channels in any order) and `MOTION` (frame count, frame time, values).
//!
//! The hierarchy is parsed with an explicit stack, so nesting depth costs heap, not the call
//! stack; the motion's values are counted against the bytes present before anything is
//! allocated for them. Lines and columns are counted only when an error is reported, so the
//! hot loop over the values only skips separators and parses numbers.

use super::error::{BvhError, BvhErrorKind};
use super::{Bvh, Channel, Joint, JointKind};
use glam::DVec3;

/// Longest word an error message quotes.
const QUOTE_LIMIT: usize = 40;

pub(super) fn parse(data: &[u8]) -> Result<Bvh, BvhError> {
    // A UTF-8 byte-order mark (editors on Windows write one) is skipped, not a word; offsets
    // stay those of the whole input.
    let start = if data.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let mut p = Parser { data, pos: start };
    p.keyword("HIERARCHY", "`HIERARCHY`")?;
    let mut joints: Vec<Joint> = Vec::new();
    let mut channel_count = 0usize;
    loop {
        let (at, word) = p.word("`ROOT` or `MOTION`")?;
        match word {
            b"ROOT" => p.joint_tree(&mut joints, &mut channel_count)?,
            b"MOTION" if !joints.is_empty() => break,
            _ => return Err(p.expected(at, word, "`ROOT` or `MOTION`")),
        }
    }
    let (frame_count, frame_time) = p.motion_header()?;
    // Every pose (FK, keypoints) costs frames × joints: bounded by the input's size. Files with
    // channels meet this by far (each value takes two bytes or more).
    if (frame_count as u64).saturating_mul(joints.len() as u64) > data.len() as u64 {
        let kind = BvhErrorKind::TooManyFrames {
            frames: frame_count as u64,
            joints: joints.len(),
            bytes: data.len(),
        };
        return Err(p.error(p.pos, kind));
    }
    let motion = p.values(frame_count, channel_count)?;
    Ok(Bvh { joints, frame_count, frame_time, channel_count, motion })
}

struct Parser<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, offset: usize, kind: BvhErrorKind) -> BvhError {
        BvhError::at(self.data, offset, kind)
    }

    fn expected(&self, at: usize, word: &[u8], expected: &'static str) -> BvhError {
        let mut found = String::from_utf8_lossy(word).into_owned();
        if let Some((cut, _)) = found.char_indices().nth(QUOTE_LIMIT) {
            found.truncate(cut);
            found.push('…');
        }
        self.error(at, BvhErrorKind::Expected { expected, found })
    }

    fn skip_space(&mut self) {
        while self.pos < self.data.len() && self.data[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// The next whitespace-separated word and where it starts.
    fn word(&mut self, expected: &'static str) -> Result<(usize, &'a [u8]), BvhError> {
        self.skip_space();
        let start = self.pos;
        while self.pos < self.data.len() && !self.data[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(start, BvhErrorKind::UnexpectedEnd { expected }));
        }
        Ok((start, &self.data[start..self.pos]))
    }

    fn keyword(&mut self, keyword: &str, expected: &'static str) -> Result<usize, BvhError> {
        let (at, word) = self.word(expected)?;
        if word.eq_ignore_ascii_case(keyword.as_bytes()) {
            Ok(at)
        } else {
            Err(self.expected(at, word, expected))
        }
    }

    /// The rest of the line, trimmed: a joint's name, which may hold spaces and colons
    /// (`mixamorig:Hips`). A `{` ending the line after white space opens the joint's block.
    fn name(&mut self) -> Result<(String, bool), BvhError> {
        while self.pos < self.data.len() && matches!(self.data[self.pos], b' ' | b'\t') {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.data.len() && !matches!(self.data[self.pos], b'\n' | b'\r') {
            self.pos += 1;
        }
        let mut raw = self.data[start..self.pos].trim_ascii();
        // `ROOT Hips {`: a brace after white space opens the block; `b{` is a name.
        let opens =
            raw.len() >= 2 && raw.ends_with(b"{") && raw[raw.len() - 2].is_ascii_whitespace();
        if opens {
            raw = raw[..raw.len() - 1].trim_ascii_end();
        }
        if raw.is_empty() {
            return Err(self.error(start, BvhErrorKind::MissingName));
        }
        Ok((super::decode_name(raw), opens))
    }

    fn number(&mut self, expected: &'static str) -> Result<f64, BvhError> {
        let (at, word) = self.word(expected)?;
        parse_number(word).ok_or_else(|| {
            self.error(at, BvhErrorKind::BadNumber(String::from_utf8_lossy(word).into_owned()))
        })
    }

    fn offset(&mut self) -> Result<DVec3, BvhError> {
        let x = self.number("the OFFSET's x")?;
        let y = self.number("the OFFSET's y")?;
        let z = self.number("the OFFSET's z")?;
        Ok(DVec3::new(x, y, z))
    }

    /// One `ROOT` with everything inside it, the keyword already read.
    fn joint_tree(
        &mut self,
        joints: &mut Vec<Joint>,
        channel_count: &mut usize,
    ) -> Result<(), BvhError> {
        // Open joints, innermost last, with whether each has its OFFSET yet.
        let mut open: Vec<(usize, bool)> = Vec::new();
        let mut kind = JointKind::Root;
        loop {
            // A new joint: its name, then its block.
            let (name, opened) = self.name()?;
            if !opened {
                self.keyword("{", "`{`")?;
            }
            let parent = open.last().map(|&(j, _)| j);
            joints.push(Joint {
                name,
                kind,
                parent,
                offset: DVec3::ZERO,
                channels: Vec::new(),
                first_channel: *channel_count,
            });
            open.push((joints.len() - 1, false));
            // The block's lines, until a nested JOINT starts another.
            loop {
                let expected = "OFFSET, CHANNELS, JOINT, End Site or `}`";
                let (at, word) = self.word(expected)?;
                let (joint, has_offset) = *open.last().expect("a joint is open");
                match word {
                    w if w.eq_ignore_ascii_case(b"OFFSET") => {
                        if has_offset {
                            return Err(self.error(at, BvhErrorKind::Repeated("OFFSET")));
                        }
                        joints[joint].offset = self.offset()?;
                        open.last_mut().expect("a joint is open").1 = true;
                    }
                    w if w.eq_ignore_ascii_case(b"CHANNELS") => {
                        if !joints[joint].channels.is_empty() {
                            return Err(self.error(at, BvhErrorKind::Repeated("CHANNELS")));
                        }
                        let channels = self.channels()?;
                        *channel_count += channels.len();
                        joints[joint].first_channel = *channel_count - channels.len();
                        joints[joint].channels = channels;
                    }
                    w if w.eq_ignore_ascii_case(b"JOINT") => {
                        self.require_offset(joints, joint, has_offset, at)?;
                        kind = JointKind::Joint;
                        break;
                    }
                    w if w.eq_ignore_ascii_case(b"End") => {
                        self.require_offset(joints, joint, has_offset, at)?;
                        self.end_site(joints, joint)?;
                    }
                    b"}" => {
                        self.require_offset(joints, joint, has_offset, at)?;
                        open.pop();
                        if open.is_empty() {
                            return Ok(());
                        }
                    }
                    _ => return Err(self.expected(at, word, expected)),
                }
            }
        }
    }

    fn require_offset(
        &self,
        joints: &[Joint],
        joint: usize,
        has_offset: bool,
        at: usize,
    ) -> Result<(), BvhError> {
        if has_offset {
            Ok(())
        } else {
            Err(self.error(at, BvhErrorKind::MissingOffset(joints[joint].name.clone())))
        }
    }

    /// `Site { OFFSET x y z }`, after `End`.
    fn end_site(&mut self, joints: &mut Vec<Joint>, parent: usize) -> Result<(), BvhError> {
        self.keyword("Site", "`Site` after `End`")?;
        self.keyword("{", "`{`")?;
        self.keyword("OFFSET", "the End Site's OFFSET")?;
        let offset = self.offset()?;
        self.keyword("}", "`}` closing the End Site")?;
        joints.push(Joint {
            name: format!("{}_End", joints[parent].name),
            kind: JointKind::EndSite,
            parent: Some(parent),
            offset,
            channels: Vec::new(),
            first_channel: joints[parent].first_channel + joints[parent].channels.len(),
        });
        Ok(())
    }

    fn channels(&mut self) -> Result<Vec<Channel>, BvhError> {
        let (at, word) = self.word("the channel count")?;
        let count = std::str::from_utf8(word).ok().and_then(|s| s.parse::<u64>().ok());
        let Some(count) = count else {
            return Err(self.expected(at, word, "a channel count from 0 to 6"));
        };
        if count > 6 {
            return Err(self.error(at, BvhErrorKind::TooManyChannels(count)));
        }
        let mut channels = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (at, word) = self.word("a channel name")?;
            let text = String::from_utf8_lossy(word);
            let channel = Channel::parse(&text)
                .ok_or_else(|| self.error(at, BvhErrorKind::UnknownChannel(text.to_string())))?;
            if channels.contains(&channel) {
                return Err(self.error(at, BvhErrorKind::RepeatedChannel(text.to_string())));
            }
            channels.push(channel);
        }
        Ok(channels)
    }

    /// `Frames: N` and `Frame Time: T`, with or without a space before each colon.
    fn motion_header(&mut self) -> Result<(usize, f64), BvhError> {
        self.label(&["Frames"], "`Frames:`")?;
        let (at, word) = self.word("the frame count")?;
        let frames = std::str::from_utf8(word).ok().and_then(|s| s.parse::<u64>().ok());
        let frames = frames.and_then(|f| usize::try_from(f).ok()).ok_or_else(|| {
            self.error(at, BvhErrorKind::BadFrameCount(String::from_utf8_lossy(word).into()))
        })?;
        self.label(&["Frame", "Time"], "`Frame Time:`")?;
        let (at, word) = self.word("the frame time")?;
        // Above MAX_FPS frames a second is no rate anything samples: a damaged time.
        let shortest = 1.0 / crate::math::MAX_FPS;
        let time = parse_number(word).filter(|t| *t >= shortest).ok_or_else(|| {
            self.error(at, BvhErrorKind::BadFrameTime(String::from_utf8_lossy(word).into()))
        })?;
        Ok((frames, time))
    }

    /// Words making up a label ending in `:` (`Frame Time:`, `Frames :`).
    fn label(&mut self, words: &[&str], expected: &'static str) -> Result<(), BvhError> {
        for (i, w) in words.iter().enumerate() {
            let (at, word) = self.word(expected)?;
            let last = i + 1 == words.len();
            let bare = if last { word.strip_suffix(b":").unwrap_or(word) } else { word };
            if !bare.eq_ignore_ascii_case(w.as_bytes()) {
                return Err(self.expected(at, word, expected));
            }
            if last && bare.len() == word.len() {
                self.keyword(":", expected)?;
            }
        }
        Ok(())
    }

    fn values(&mut self, frames: usize, channels: usize) -> Result<Vec<f64>, BvhError> {
        let left = self.data.len() - self.pos;
        let total = (frames as u64).checked_mul(channels as u64);
        // n values need at least 2n − 1 bytes.
        let fits = total.is_some_and(|n| n <= (left as u64).div_ceil(2));
        if !fits {
            return Err(self.error(
                self.pos,
                BvhErrorKind::DataTooShort {
                    frames: frames as u64,
                    channels,
                    values: total.unwrap_or(u64::MAX),
                    bytes: left,
                },
            ));
        }
        let total = total.unwrap_or(0) as usize;
        let mut values = Vec::with_capacity(total);
        let data = self.data;
        let mut pos = self.pos;
        while values.len() < total {
            while pos < data.len() && data[pos].is_ascii_whitespace() {
                pos += 1;
            }
            let start = pos;
            while pos < data.len() && !data[pos].is_ascii_whitespace() {
                pos += 1;
            }
            if start == pos {
                let kind = BvhErrorKind::TooFewValues {
                    expected: total as u64,
                    found: values.len() as u64,
                };
                return Err(self.error(pos, kind));
            }
            let word = &data[start..pos];
            let Some(v) = parse_number(word) else {
                let text = String::from_utf8_lossy(word).into_owned();
                return Err(self.error(start, BvhErrorKind::BadNumber(text)));
            };
            values.push(v);
        }
        self.pos = pos;
        self.skip_space();
        if self.pos < data.len() {
            let kind = BvhErrorKind::TooManyValues { expected: total as u64 };
            return Err(self.error(self.pos, kind));
        }
        Ok(values)
    }
}

/// A finite decimal number (`-1.5`, `.0083333`, `1e-3`); `inf` and `nan` are refused.
fn parse_number(word: &[u8]) -> Option<f64> {
    if let Some(v) = plain_decimal(word) {
        return Some(v);
    }
    let text = std::str::from_utf8(word).ok()?;
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Powers of ten that f64 holds exactly.
const POW10: [f64; 16] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// The fast path for what BVH files nearly always hold, `-12.345678`: at most 15 digits and no
/// exponent. The digits are an exact integer below 2^53 and the divisor an exact power of ten,
/// so one division rounds correctly and the result is bit for bit what `str::parse` gives
/// (Clinger's fast path). Anything else is left to `str::parse`.
fn plain_decimal(word: &[u8]) -> Option<f64> {
    let (negative, digits) = match word.first()? {
        b'-' => (true, &word[1..]),
        b'+' => (false, &word[1..]),
        _ => (false, word),
    };
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut count = 0;
    let mut decimals = None;
    for (i, &b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                count += 1;
            }
            b'.' if decimals.is_none() => decimals = Some(digits.len() - i - 1),
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let value = mantissa as f64 / POW10[decimals.unwrap_or(0)];
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::parse_number;

    #[test]
    fn the_fast_path_agrees_with_str_parse() {
        let words = [
            "0",
            "-0.000000",
            "12.345678",
            "-179.999999",
            ".0083333",
            "5.",
            "+3.25",
            "123456789012345",
            "0.123456789012345",
            "1234567890123456",
            "1e-3",
            "-2.5E2",
        ];
        for w in words {
            let expected: f64 = w.parse().unwrap();
            let got = parse_number(w.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), expected.to_bits(), "{w}");
        }
        // Every six-decimal value of a range, as written files hold them.
        for i in (-2_000_000i64..2_000_000).step_by(7) {
            let w = format!("{:.6}", i as f64 / 1e4);
            assert_eq!(parse_number(w.as_bytes()), w.parse().ok(), "{w}");
        }
        for bad in ["", "-", ".", "1.2.3", "nan", "inf", "-inf", "1e999", "0x10", "1,5"] {
            assert_eq!(parse_number(bad.as_bytes()), None, "{bad}");
        }
    }
}
