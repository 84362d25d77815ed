//! NumPy `.npz` output: `.npy` entries (format version 1.0) in a zip with stored (uncompressed)
//! members, as `numpy.savez` writes them, so `numpy.load` reads every array without pickle.
//!
//! An `.npy` file is the magic `\x93NUMPY`, version 1.0, a little-endian u16 header length and
//! a Python dict literal (`descr`, `fortran_order`, `shape`) padded with spaces and a newline so
//! that the data starts on a 64-byte boundary, then the data in C order. The zip has one local
//! header per member (CRC-32 and sizes filled in up front: data is generated twice, once for
//! the checksum and once to write, instead of being held), a central directory and its end
//! record. Zip64 is not written: a member or the whole archive past 4 GiB is an error.

use std::io::{self, Write};

/// One array's elements, borrowed.
pub(crate) enum Data<'a> {
    F32(&'a [f32]),
    F64(&'a [f64]),
    I32(&'a [i32]),
    /// Unicode strings as NumPy stores them (`<U{width}`): UTF-32LE, NUL-padded.
    Str(&'a [String]),
}

/// A named array: `name` becomes the member `name.npy` and the key `numpy.load` gives it.
pub(crate) struct Array<'a> {
    pub name: &'a str,
    pub shape: Vec<usize>,
    pub data: Data<'a>,
}

impl Array<'_> {
    fn width(&self) -> usize {
        match &self.data {
            Data::Str(values) => values.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(1),
            _ => 0,
        }
    }

    fn header(&self) -> Vec<u8> {
        let descr = match &self.data {
            Data::F32(_) => "<f4".to_string(),
            Data::F64(_) => "<f8".to_string(),
            Data::I32(_) => "<i4".to_string(),
            Data::Str(_) => format!("<U{}", self.width()),
        };
        let shape = match self.shape.as_slice() {
            [] => "()".to_string(),
            [n] => format!("({n},)"),
            dims => {
                format!("({})", dims.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
            }
        };
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        // magic (6) + version (2) + length (2) + dict + padding + '\n' ≡ 0 (mod 64).
        let unpadded = 10 + dict.len() + 1;
        let total = unpadded.div_ceil(64) * 64;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"\x93NUMPY\x01\x00");
        out.extend_from_slice(&((total - 10) as u16).to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.resize(total - 1, b' ');
        out.push(b'\n');
        out
    }

    /// Feeds the whole `.npy` member to `sink`, in chunks.
    fn emit(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        sink(&self.header())?;
        let mut buf = Vec::with_capacity(1 << 16);
        macro_rules! chunks {
            ($values:expr) => {
                for chunk in $values.chunks(1 << 13) {
                    buf.clear();
                    for v in chunk {
                        buf.extend_from_slice(&v.to_le_bytes());
                    }
                    sink(&buf)?;
                }
            };
        }
        match &self.data {
            Data::F32(v) => chunks!(v),
            Data::F64(v) => chunks!(v),
            Data::I32(v) => chunks!(v),
            Data::Str(values) => {
                let width = self.width();
                for s in values.iter() {
                    buf.clear();
                    for c in s.chars() {
                        buf.extend_from_slice(&(c as u32).to_le_bytes());
                    }
                    buf.resize(width * 4, 0);
                    sink(&buf)?;
                }
            }
        }
        Ok(())
    }
}

/// CRC-32 (IEEE, reflected, as zip uses it), table driven.
struct Crc32 {
    table: [u32; 256],
    value: u32,
}

impl Crc32 {
    fn new() -> Crc32 {
        let mut table = [0u32; 256];
        for (i, entry) in table.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            *entry = c;
        }
        Crc32 { table, value: !0 }
    }

    fn update(&mut self, bytes: &[u8]) {
        let mut c = self.value;
        for &b in bytes {
            c = self.table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
        }
        self.value = c;
    }

    fn finish(&self) -> u32 {
        !self.value
    }
}

fn too_big() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "NPZ over 4 GiB: zip64 is not supported; bake fewer frames",
    )
}

/// Writes `arrays` as an `.npz` archive.
pub(crate) fn write_npz(arrays: &[Array<'_>], out: &mut dyn Write) -> io::Result<()> {
    // A fixed timestamp (1980-01-01 00:00, the zip epoch) keeps output reproducible.
    const TIME: u16 = 0;
    const DATE: u16 = (1 << 5) | 1;
    let mut central = Vec::new();
    let mut offset: u64 = 0;
    for array in arrays {
        let name = format!("{}.npy", array.name);
        let mut crc = Crc32::new();
        let mut size: u64 = 0;
        array.emit(&mut |bytes| {
            crc.update(bytes);
            size += bytes.len() as u64;
            Ok(())
        })?;
        let (crc, size32) = (crc.finish(), u32::try_from(size).map_err(|_| too_big())?);
        let offset32 = u32::try_from(offset).map_err(|_| too_big())?;

        let mut local = Vec::with_capacity(30 + name.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
        local.extend_from_slice(&0u16.to_le_bytes()); // flags
        local.extend_from_slice(&0u16.to_le_bytes()); // method: stored
        local.extend_from_slice(&TIME.to_le_bytes());
        local.extend_from_slice(&DATE.to_le_bytes());
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&size32.to_le_bytes()); // compressed
        local.extend_from_slice(&size32.to_le_bytes()); // uncompressed
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // extra
        local.extend_from_slice(name.as_bytes());
        out.write_all(&local)?;
        array.emit(&mut |bytes| out.write_all(bytes))?;

        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        central.extend_from_slice(&local[4..30]); // version needed … extra length
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset32.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
        offset += local.len() as u64 + size;
    }
    let count = u16::try_from(arrays.len()).map_err(|_| too_big())?;
    let cd_offset = u32::try_from(offset).map_err(|_| too_big())?;
    out.write_all(&central)?;
    let mut end = Vec::with_capacity(22);
    end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes()); // this disk
    end.extend_from_slice(&0u16.to_le_bytes()); // central directory disk
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&(central.len() as u32).to_le_bytes());
    end.extend_from_slice(&cd_offset.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes()); // comment
    out.write_all(&end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skeleton_npz_crc_and_header_layout() {
        let mut crc = Crc32::new();
        crc.update(b"123456789");
        assert_eq!(crc.finish(), 0xCBF4_3926); // the standard check value
        let a = Array { name: "x", shape: vec![2, 3], data: Data::F32(&[0.0; 6]) };
        let h = a.header();
        assert_eq!(h.len() % 64, 0);
        assert!(h.starts_with(b"\x93NUMPY\x01\x00") && h.ends_with(b"\n"));
        let dict = std::str::from_utf8(&h[10..]).unwrap();
        assert!(dict.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
        let s = Array { name: "s", shape: vec![], data: Data::F64(&[30.0]) };
        assert!(std::str::from_utf8(&s.header()[10..]).unwrap().contains("'shape': ()"));
        let names = ["センター".to_string(), "a".to_string()];
        let n = Array { name: "n", shape: vec![2], data: Data::Str(&names) };
        assert!(std::str::from_utf8(&n.header()[10..]).unwrap().contains("'<U4'"));
    }
}
