//! NumPy `.npz` output through npyz: stored (uncompressed) `.npy` members, as `numpy.savez`
//! writes them, so `numpy.load` reads every array without pickle.
//!
//! Every member is started with Zip64 extra fields ([`member_options`]), so that a member or an
//! archive past 4 GiB (a long bake of a large model) is written rather than refused; readers
//! that matter (numpy's zipfile, every current unzip) read Zip64. npyz writes fixed-width
//! unicode (`<U{width}`) from `str` rows, so names need no writer of our own.

use npyz::zip::write::FileOptions;
use npyz::zip::{CompressionMethod, DateTime};
use npyz::{DType, Serialize, WriterBuilder};
use std::io::{self, Seek, Write};

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

/// The zip options of every member: stored, Zip64, and a fixed timestamp (1980-01-01 00:00,
/// the zip epoch) so that the same bake gives the same bytes.
pub(crate) fn member_options() -> FileOptions {
    FileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .large_file(true)
        .last_modified_time(DateTime::default())
}

fn dtype(descr: &str) -> DType {
    DType::parse(&format!("'{descr}'")).expect("a valid type string")
}

/// Writes one member of `descr` elements.
fn member<'a, T: Serialize + ?Sized + 'a, W: Write + Seek>(
    npz: &mut npyz::npz::NpzWriter<W>,
    array: &Array<'_>,
    descr: &str,
    rows: impl IntoIterator<Item = &'a T>,
) -> io::Result<()> {
    let shape: Vec<u64> = array.shape.iter().map(|&d| d as u64).collect();
    let mut writer = npz
        .array::<T>(array.name, member_options())?
        .dtype(dtype(descr))
        .shape(&shape)
        .begin_nd()?;
    for row in rows {
        writer.push(row)?;
    }
    writer.finish()
}

/// Passes writes and seeks through until the first error, then swallows them. The zip writer,
/// dropped on an error, finishes the archive in its `Drop` and prints its debug text when that
/// fails too (`ZipWriter drop failed: Io(Os {…})` on a full disk, before the real error is
/// reported); after a failure nothing more is worth writing, so its last attempt goes nowhere.
/// Positions are kept after the failure as if the writes had happened, since the zip writer
/// subtracts them.
struct Fuse<W> {
    inner: W,
    blown: bool,
    position: u64,
    end: u64,
}

impl<W> Fuse<W> {
    fn new(inner: W) -> Fuse<W> {
        Fuse { inner, blown: false, position: 0, end: 0 }
    }

    fn watch<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if result.as_ref().is_err_and(|e| e.kind() != io::ErrorKind::Interrupted) {
            self.blown = true;
        }
        result
    }

    fn advance(&mut self, n: usize) {
        self.position = self.position.saturating_add(n as u64);
        self.end = self.end.max(self.position);
    }
}

impl<W: Write> Write for Fuse<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = if self.blown { Ok(buf.len()) } else { self.inner.write(buf) };
        let n = self.watch(result)?;
        self.advance(n);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.blown {
            return Ok(());
        }
        let result = self.inner.flush();
        self.watch(result)
    }
}

impl<W: Seek> Seek for Fuse<W> {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        let result = if self.blown {
            Ok(match to {
                io::SeekFrom::Start(p) => p,
                io::SeekFrom::End(d) => self.end.saturating_add_signed(d),
                io::SeekFrom::Current(d) => self.position.saturating_add_signed(d),
            })
        } else {
            self.inner.seek(to)
        };
        self.position = self.watch(result)?;
        self.end = self.end.max(self.position);
        Ok(self.position)
    }
}

/// Writes `arrays` as an `.npz` archive. The zip format seeks back to fill each member's sizes
/// and checksum in, hence `Seek`. On an error, that error is returned and nothing more is
/// written to `out` ([`Fuse`]).
pub(crate) fn write_npz<W: Write + Seek>(arrays: &[Array<'_>], out: W) -> io::Result<()> {
    let mut npz = npyz::npz::NpzWriter::new(Fuse::new(out));
    for array in arrays {
        match &array.data {
            Data::F32(v) => member(&mut npz, array, "<f4", v.iter())?,
            Data::F64(v) => member(&mut npz, array, "<f8", v.iter())?,
            Data::I32(v) => member(&mut npz, array, "<i4", v.iter())?,
            Data::Str(v) => {
                let width = v.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(1);
                member::<str, Fuse<W>>(
                    &mut npz,
                    array,
                    &format!("<U{width}"),
                    v.iter().map(String::as_str),
                )?
            }
        }
    }
    npz.zip_writer().finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member past 4 GiB is written, not refused, with the options every member gets. The
    /// data goes to a sink that only counts, so this costs the CRC of 4 GiB (seconds), not
    /// memory or disk.
    #[test]
    fn skeleton_npz_member_past_4_gib() {
        /// Counts and discards bytes, seeking as the zip writer needs.
        #[derive(Default)]
        struct Sink {
            position: u64,
            len: u64,
        }
        impl Write for Sink {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.position += buf.len() as u64;
                self.len = self.len.max(self.position);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        impl Seek for Sink {
            fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
                self.position = match to {
                    io::SeekFrom::Start(p) => p,
                    io::SeekFrom::End(d) => self.len.checked_add_signed(d).unwrap(),
                    io::SeekFrom::Current(d) => self.position.checked_add_signed(d).unwrap(),
                };
                Ok(self.position)
            }
        }
        let mut zip = npyz::zip::ZipWriter::new(Sink::default());
        zip.start_file("big.npy", member_options()).unwrap();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..(4u64 << 10) + 1 {
            zip.write_all(&chunk).unwrap();
        }
        let sink = zip.finish().unwrap();
        assert!(sink.len > 4 << 30);
    }
}
