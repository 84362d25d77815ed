//! Size limits of dense outputs: bakes and keypoints, which hold a value at every output frame.
//!
//! Their size follows the frame *numbers*, not the input's size: a 1 KB motion with one key at
//! frame 4,294,967,295 asks a world-space bake for 4.3 billion samples, and one flipped byte in
//! a frame number does the same to any file. So each dense output works its size out from the
//! frame span before it allocates or samples anything ([`DenseSize`]), and refuses one above
//! its limit ([`OutputTooLarge`]) instead of growing until the system kills it.
//!
//! Sizes are parsed and shown by [`ByteSize`]: `512M`, `8G` and `4GiB` are binary (powers of
//! 1024), `512MB` and `8GB` decimal, as GNU tools read them; plain numbers are bytes.

use std::fmt;
use std::str::FromStr;

/// The default limit of one dense output, 4 GiB.
///
/// Real motions stay far below it: a 10-minute dance baked at 60 fps with 300 bone and 100
/// morph tracks is 36,001 frames × (300 × 111 + 100 × 23) bytes ≈ 1.3 GB, and its world-space
/// bake on a 300-bone model 36,001 × 300 × 28 bytes ≈ 0.3 GB. The output is held in memory
/// while it is made (and JSON or CSV text is several times larger still), so more than a few
/// GiB would swap or be killed on a desktop; past that, frame numbers are nearly always damage.
/// The CLI's `--max-output-size` raises it.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 4 << 30;

/// A number of bytes. Shown with binary units to three significant digits ("369 GiB",
/// "4 GiB"); parsed from `512M`, `8G`, `1.5GiB`, `8GB` (decimal) or plain bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteSize(pub u64);

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        let bytes = self.0;
        if bytes < 1024 {
            return write!(f, "{bytes} {}", if bytes == 1 { "byte" } else { "bytes" });
        }
        let mut value = bytes as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        let decimals = if value >= 100.0 {
            0
        } else if value >= 10.0 {
            1
        } else {
            2
        };
        let text = format!("{value:.decimals$}");
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.')
        } else {
            &text
        };
        write!(f, "{text} {}", UNITS[unit])
    }
}

/// A size that [`ByteSize::from_str`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is not a size: {reason} (sizes look like 512M, 8G, 2.5GiB, 8GB or 1000000)")]
pub struct ParseByteSizeError {
    /// The text given.
    pub input: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl FromStr for ByteSize {
    type Err = ParseByteSizeError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let fail = |reason| ParseByteSizeError { input: input.to_string(), reason };
        let text = input.trim();
        let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
        let (number, unit) = (&text[..split], text[split..].trim());
        let multiplier: u64 = match unit.to_ascii_lowercase().as_str() {
            "" | "b" => 1,
            "k" | "kib" => 1 << 10,
            "m" | "mib" => 1 << 20,
            "g" | "gib" => 1 << 30,
            "t" | "tib" => 1 << 40,
            "kb" => 1_000,
            "mb" => 1_000_000,
            "gb" => 1_000_000_000,
            "tb" => 1_000_000_000_000,
            _ => return Err(fail("unknown unit")),
        };
        if number.is_empty() || number == "." {
            return Err(fail("no number"));
        }
        let bytes = if number.contains('.') {
            let value: f64 = number.parse().map_err(|_| fail("not a number"))?;
            let bytes = (value * multiplier as f64).round();
            // 2^64 is exactly representable; anything at or above it does not fit.
            if bytes >= 18_446_744_073_709_551_616.0 {
                return Err(fail("too large"));
            }
            bytes as u64
        } else {
            let value: u64 = number.parse().map_err(|_| fail("too large"))?;
            value.checked_mul(multiplier).ok_or_else(|| fail("too large"))?
        };
        Ok(ByteSize(bytes))
    }
}

/// What a dense output holds at each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DenseOutput {
    /// VMD keys of a bake (`bake::bake`): [`DenseSize::count`] is the number of keys.
    Keys,
    /// Bones of a world-space bake (`bake::bake_world`): the count is bones per frame.
    Bones,
    /// Joints of keypoints read off a motion (`retarget::keypoints_from_motion`): the count
    /// is joints per frame.
    Joints,
    /// VMD keys of a retargeting's dense motion (`retarget::retarget`), at 30 fps: the count
    /// is the number of keys.
    RetargetKeys,
}

/// The size a dense output would have, worked out from its frame span alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DenseSize {
    /// What the output holds.
    pub output: DenseOutput,
    /// The first source frame (30 fps) the output covers.
    pub first: u32,
    /// The last source frame it covers.
    pub last: u32,
    /// Output frames per second.
    pub fps: f64,
    /// Output frames from `first` to `last` at `fps`.
    pub frames: u64,
    /// Keys in all, for [`DenseOutput::Keys`]; bones or joints per frame otherwise.
    pub count: u64,
    /// The output's size: VMD records for keys, array bytes for bones and joints (text
    /// formats are larger). Saturates at `u64::MAX`.
    pub bytes: u64,
}

impl DenseSize {
    /// `self`, or an error when it is above `limit` bytes.
    pub fn within(self, limit: u64) -> Result<DenseSize, OutputTooLarge> {
        if self.bytes > limit {
            Err(OutputTooLarge { size: self, limit })
        } else {
            Ok(self)
        }
    }
}

/// A dense output larger than its limit; nothing was allocated or sampled. The message states
/// the span, the size and the limit; frame numbers far beyond the rest are the usual cause,
/// which the front ends say in their own words (where their users see such frames, how they
/// raise the limit).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "{what} of frames {first}..{last} at {fps} fps would be {shape}: {bytes} of {unit}, over \
     the limit of {limit}",
    what = self.what(),
    first = grouped(self.size.first.into()),
    last = grouped(self.size.last.into()),
    fps = self.size.fps,
    shape = self.shape(),
    bytes = bytes_text(self.size.bytes),
    unit = self.unit(),
    limit = bytes_text(self.limit),
)]
pub struct OutputTooLarge {
    /// The size the output would have.
    pub size: DenseSize,
    /// The limit it is above, in bytes.
    pub limit: u64,
}

impl OutputTooLarge {
    fn what(&self) -> &'static str {
        match self.size.output {
            DenseOutput::Keys => "a bake",
            DenseOutput::Bones => "a world-space bake",
            DenseOutput::Joints => "keypoints",
            DenseOutput::RetargetKeys => "a retargeted motion",
        }
    }

    fn shape(&self) -> String {
        let (frames, count) = (grouped(self.size.frames), grouped(self.size.count));
        match self.size.output {
            DenseOutput::Keys | DenseOutput::RetargetKeys => {
                format!("{frames} frames long with {count} keys")
            }
            DenseOutput::Bones => format!("{frames} samples × {count} {}", self.per("bone")),
            DenseOutput::Joints => format!("{frames} frames × {count} {}", self.per("joint")),
        }
    }

    /// `thing`, plural unless the count is 1.
    fn per(&self, thing: &str) -> String {
        if self.size.count == 1 {
            thing.to_string()
        } else {
            format!("{thing}s")
        }
    }

    fn unit(&self) -> &'static str {
        match self.size.output {
            DenseOutput::Keys | DenseOutput::RetargetKeys => "VMD records",
            DenseOutput::Bones | DenseOutput::Joints => "arrays",
        }
    }
}

/// The number of samples at `fps` from frame 0 through `last_frame` (both ends included when
/// they fall on a sample).
/// Saturates at `usize::MAX` (a rate so high that the count does not fit).
pub fn sample_count(last_frame: u32, fps: f64) -> usize {
    usize::try_from(samples(last_frame, fps)).unwrap_or(usize::MAX)
}

/// [`sample_count`] in `u64`, saturating.
pub(crate) fn samples(last_frame: u32, fps: f64) -> u64 {
    // A hair of tolerance so that e.g. 60 fps over 90 frames gives 181 samples, not 180. The
    // float-to-integer cast saturates.
    ((f64::from(last_frame) / crate::math::FPS * fps + 1e-9).floor() as u64).saturating_add(1)
}

/// The size of an output holding each of `bones` bones at every sample from frame 0 through
/// `last_frame` (the last key; none in an empty motion) at `fps` (checked by the caller):
/// `per_bone` bytes per bone and `per_sample` more per sample. Shared by the world bake and the
/// BVH export.
pub(crate) fn bone_samples_size(
    last_frame: Option<u32>,
    fps: f64,
    bones: usize,
    per_bone: u64,
    per_sample: u64,
) -> DenseSize {
    let last = last_frame.unwrap_or(0);
    let frames = samples(last, fps);
    let bones = bones as u64;
    let sample_bytes = bones.saturating_mul(per_bone).saturating_add(per_sample);
    DenseSize {
        output: DenseOutput::Bones,
        first: 0,
        last,
        fps,
        frames,
        count: bones,
        bytes: frames.saturating_mul(sample_bytes),
    }
}

/// "4,294,967,296 bytes (4 GiB)", or "100 bytes" where units would add nothing.
fn bytes_text(n: u64) -> String {
    if n < 1024 {
        ByteSize(n).to_string()
    } else {
        format!("{} bytes ({})", grouped(n), ByteSize(n))
    }
}

/// `n` with commas between groups of three digits: 4,294,967,295.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<u64, ParseByteSizeError> {
        text.parse::<ByteSize>().map(|s| s.0)
    }

    #[test]
    fn sizes_parse_with_binary_and_decimal_units() {
        assert_eq!(parse("0"), Ok(0));
        assert_eq!(parse("1000000"), Ok(1_000_000));
        assert_eq!(parse("512M"), Ok(512 << 20));
        assert_eq!(parse("8G"), Ok(8 << 30));
        assert_eq!(parse("8g"), Ok(8 << 30));
        assert_eq!(parse("4GiB"), Ok(4 << 30));
        assert_eq!(parse(" 4 GiB "), Ok(4 << 30));
        assert_eq!(parse("1.5K"), Ok(1536));
        assert_eq!(parse("8GB"), Ok(8_000_000_000));
        assert_eq!(parse("2tb"), Ok(2_000_000_000_000));
        assert_eq!(parse("100B"), Ok(100));
        assert_eq!(parse("16383.99999P").map_err(|e| e.reason), Err("unknown unit"));
        for bad in ["", "G", ".", "-1", "1.2.3", "8 X", "1e9", "99999999999999999999"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse("20000000000G").map_err(|e| e.reason), Err("too large"));
        assert_eq!(parse("17179869184.5G").map_err(|e| e.reason), Err("too large"));
        let message = parse("8X").unwrap_err().to_string();
        assert!(message.contains("\"8X\"") && message.contains("512M"), "{message}");
    }

    #[test]
    fn sizes_show_three_significant_digits_and_read_back() {
        let shown = |n: u64| ByteSize(n).to_string();
        assert_eq!(shown(0), "0 bytes");
        assert_eq!(shown(1), "1 byte");
        assert_eq!(shown(1023), "1023 bytes");
        assert_eq!(shown(1130), "1.1 KiB");
        assert_eq!(shown(DEFAULT_MAX_OUTPUT_BYTES), "4 GiB");
        assert_eq!(shown(34_359_738_368), "32 GiB");
        assert_eq!(shown(396_664_398_540), "369 GiB");
        assert_eq!(shown(u64::MAX), "16 EiB");
        for n in [1024, 512 << 20, DEFAULT_MAX_OUTPUT_BYTES, 3 << 40] {
            assert_eq!(parse(&shown(n)), Ok(n));
        }
    }

    #[test]
    fn too_large_names_span_frames_size_and_limit() {
        let size = DenseSize {
            output: DenseOutput::Bones,
            first: 0,
            last: u32::MAX,
            fps: 30.0,
            frames: 1 << 32,
            count: 2,
            bytes: (1 << 32) * 2 * 28,
        };
        assert_eq!(size.within(u64::MAX), Ok(size));
        let message = size.within(DEFAULT_MAX_OUTPUT_BYTES).unwrap_err().to_string();
        assert_eq!(
            message,
            "a world-space bake of frames 0..4,294,967,295 at 30 fps would be 4,294,967,296 \
             samples × 2 bones: 240,518,168,576 bytes (224 GiB) of arrays, over the limit of \
             4,294,967,296 bytes (4 GiB)"
        );
        let small = DenseSize { bytes: 5612, ..size }.within(100).unwrap_err().to_string();
        assert!(small.ends_with("5,612 bytes (5.48 KiB) of arrays, over the limit of 100 bytes"));
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
