//! A bounded little-endian cursor that tracks its offset and the section and record being read,
//! so that every failure becomes a [`ModelError`] that says where it happened.

use super::error::{ModelError, ModelErrorKind, ModelSection};
use crate::text::TextEncoding;
use glam::{Quat, Vec3};

/// A fixed-width CP932 field (PMD's names): the bytes up to the first NUL.
pub(crate) fn field(raw: &[u8]) -> &[u8] {
    raw.iter().position(|&b| b == 0).map_or(raw, |n| &raw[..n])
}

/// A fixed-width CP932 field decoded; a name that fills its field may be cut mid-character.
pub(crate) fn decode(raw: &[u8]) -> String {
    let bytes = field(raw);
    TextEncoding::ShiftJis.decode(bytes, bytes.len() == raw.len()).text.into_owned()
}

pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    section: ModelSection,
    record: Option<u64>,
}

pub(crate) type Result<T> = std::result::Result<T, ModelError>;

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0, section: ModelSection::Header, record: None }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Starts a section: errors from here on name it.
    pub fn enter(&mut self, section: ModelSection) {
        self.section = section;
        self.record = None;
    }

    /// Marks the record being read (`None` between records).
    pub fn record(&mut self, index: Option<usize>) {
        self.record = index.map(|i| i as u64);
    }

    pub fn error_at(&self, kind: ModelErrorKind, offset: usize) -> ModelError {
        ModelError { kind, section: self.section, record: self.record, offset: offset as u64 }
    }

    pub fn error(&self, kind: ModelErrorKind) -> ModelError {
        self.error_at(kind, self.pos)
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(ModelErrorKind::Truncated {
                needed: n as u64,
                available: self.remaining() as u64,
            }));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.take(n).map(|_| ())
    }

    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    pub fn u16(&mut self) -> Result<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn i32(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }

    pub fn u32(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn f32(&mut self) -> Result<f32> {
        self.array().map(f32::from_le_bytes)
    }

    pub fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }

    /// `N` vectors in a row.
    pub fn vec3s<const N: usize>(&mut self) -> Result<[Vec3; N]> {
        let mut out = [Vec3::ZERO; N];
        for v in &mut out {
            *v = self.vec3()?;
        }
        Ok(out)
    }

    /// A quaternion stored x, y, z, w.
    pub fn quat(&mut self) -> Result<Quat> {
        Ok(Quat::from_xyzw(self.f32()?, self.f32()?, self.f32()?, self.f32()?))
    }

    /// A signed PMX index of `size` bytes (−1 means none).
    pub fn index(&mut self, size: u8) -> Result<i32> {
        Ok(match size {
            1 => self.u8()? as i8 as i32,
            2 => self.u16()? as i16 as i32,
            _ => self.i32()?,
        })
    }

    /// `index` as a position in a list of `count`, or a [`ModelErrorKind::BadIndex`] at `at`
    /// naming `what` the index refers to.
    pub fn in_range(
        &self,
        index: i64,
        count: usize,
        what: &'static str,
        at: usize,
    ) -> Result<usize> {
        match usize::try_from(index) {
            Ok(i) if i < count => Ok(i),
            _ => Err(self.error_at(ModelErrorKind::BadIndex { what, index, count }, at)),
        }
    }

    /// As [`Reader::in_range`], except that −1 means none, as PMX stores an absent index.
    pub fn optional_in_range(
        &self,
        index: i32,
        count: usize,
        what: &'static str,
        at: usize,
    ) -> Result<Option<usize>> {
        match index {
            -1 => Ok(None),
            i => self.in_range(i as i64, count, what, at).map(Some),
        }
    }

    /// Checks that `count` records of at least `min_record` bytes fit in what remains, so that
    /// no damaged count can cause a large allocation or a long walk. `at` is the count's offset.
    pub fn check_count(&self, count: u64, min_record: usize, at: usize) -> Result<usize> {
        let needed = count.saturating_mul(min_record as u64);
        let available = self.remaining() as u64;
        if needed > available {
            return Err(
                self.error_at(ModelErrorKind::CountTooLarge { count, needed, available }, at)
            );
        }
        Ok(count as usize)
    }

    /// A PMD `u16` count, checked as [`Reader::check_count`] does.
    pub fn count_u16(&mut self, min_record: usize) -> Result<usize> {
        let at = self.pos;
        let count = self.u16()?;
        self.check_count(count.into(), min_record, at)
    }

    /// A PMD `u32` count, checked as [`Reader::check_count`] does.
    pub fn count_u32(&mut self, min_record: usize) -> Result<usize> {
        let at = self.pos;
        let count = self.u32()?;
        self.check_count(count.into(), min_record, at)
    }

    /// A PMX `i32` count, checked as [`Reader::check_count`] does.
    pub fn count_i32(&mut self, min_record: usize) -> Result<usize> {
        let at = self.pos;
        let count = self.i32()?;
        if count < 0 {
            return Err(self.error_at(ModelErrorKind::NegativeCount { count: count as i64 }, at));
        }
        self.check_count(count as u64, min_record, at)
    }

    /// A PMX text field: `i32` byte length, then the bytes.
    pub fn text_bytes(&mut self) -> Result<&'a [u8]> {
        let at = self.pos;
        let length = self.i32()?;
        if length < 0 {
            return Err(self.error_at(ModelErrorKind::NegativeLength { length: length as i64 }, at));
        }
        self.take(length as usize)
    }
}
