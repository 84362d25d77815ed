//! Reading NumPy `.npy` images, alone or as `.npz` members, with `npyz`, bounded by what the
//! input holds.
//!
//! Arrays of any float or integer dtype in either byte order, C or Fortran order, are decoded
//! to `f32` in C order. Object dtypes would need unpickling, which is never done. Before `npyz`
//! sees a header, the header is parsed here, once, as the Python literal it is (`py_literal`,
//! the parser `npyz` itself uses): its length, nesting and the shape's element count are
//! checked (with checked arithmetic) against the bytes present, since a header may announce any
//! shape and nothing is allocated for more than the input holds. `npyz` decodes the elements of
//! a header that passed.
//!
//! An `.npz` member is inflated only as far as its `.npy` header promises, and never past
//! [`MAX_INFLATION`] times its compressed size (or [`MIN_INFLATION_CAP`] bytes, whichever is
//! more): a member that would inflate further is refused as too large, unread.

use npyz::{DType, Order, TypeChar};
use std::io::{self, Read};

/// What is wrong with an array; each reader words it in its own error type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NpyProblem {
    /// Not an NPY image or not a zip archive.
    WrongFormat(String),
    /// A version, dtype or layout this reader does not take.
    Unsupported(String),
    /// Fewer bytes than the header promises.
    Truncated {
        /// Bytes needed.
        needed: u64,
        /// Bytes present.
        available: u64,
    },
    /// A header that does not parse.
    Syntax(String),
    /// A header that parses but cannot be read (too many elements, too large a member).
    Invalid(String),
}

/// One decoded array: its shape and its elements as `f32`, in C order.
pub(crate) struct NpyArray {
    /// The dimensions.
    pub shape: Vec<u64>,
    /// The elements, in C order.
    pub values: Vec<f32>,
}

/// The most an `.npz` member may inflate, as a multiple of its compressed size: keypoint arrays
/// of floats barely compress, so a larger ratio is an archive built to exhaust memory.
const MAX_INFLATION: u64 = 32;

/// The inflated size every member may reach whatever its compressed size (16 MiB), so that a
/// small array of zeros or NaN is still read.
const MIN_INFLATION_CAP: u64 = 16 << 20;

/// Reads one NPZ member's `.npy` image: its header, then as many bytes as the header promises (at
/// most what the zip directory declares), refused before reading when that is more than
/// [`MAX_INFLATION`] times the compressed size and [`MIN_INFLATION_CAP`].
pub(crate) fn member_bytes(
    archive: &mut npyz::npz::NpzArchive<io::Cursor<&[u8]>>,
    name: &str,
    whole: bool,
) -> Result<(Vec<u8>, Option<Header>), NpyProblem> {
    let wrong = |e: &dyn std::fmt::Display| NpyProblem::WrongFormat(e.to_string());
    let file_name = npyz::npz::file_name_from_array_name(name);
    let member = archive.zip_archive().by_name(&file_name).map_err(|e| wrong(&e))?;
    let compressed = member.compressed_size();
    let cap = compressed.saturating_mul(MAX_INFLATION).max(MIN_INFLATION_CAP);
    let declared = member.size();
    let mut member = member.take(declared);
    let mut data = Vec::new();
    // The magic, version and header length first, then the header, then the data it promises.
    let mut fill = |data: &mut Vec<u8>, to: u64| -> Result<(), NpyProblem> {
        let more = to.saturating_sub(data.len() as u64);
        (&mut member).take(more).read_to_end(data).map(drop).map_err(|e| wrong(&e))
    };
    fill(&mut data, 12)?;
    let header = match header_end(&data) {
        Ok(end) => {
            fill(&mut data, end as u64)?;
            // A header that does not parse is reported, with its place, by `read_array`.
            Header::parse(&data).ok()
        }
        Err(_) => None,
    };
    if !whole {
        return Ok((data, header));
    }
    let promised = header
        .as_ref()
        .map_or(0, |h| (h.data_start as u64).saturating_add(h.data_bytes.unwrap_or(0)));
    if promised > cap {
        let message = format!(
            "compressed member too large: its header promises {promised} bytes inflated, from \
             {compressed} compressed; at most {MAX_INFLATION} times the compressed size (or \
             {MIN_INFLATION_CAP} bytes) is inflated"
        );
        return Err(NpyProblem::Invalid(message));
    }
    fill(&mut data, promised)?;
    Ok((data, header))
}

/// Decodes one `.npy` image; an error comes with the byte offset it is at.
pub(crate) fn read_array(bytes: &[u8]) -> Result<NpyArray, (NpyProblem, usize)> {
    let fail = |problem, offset: usize| (problem, offset);
    let header = Header::parse(bytes).map_err(|(kind, offset)| fail(kind, offset))?;
    let data_start = header.data_start;
    let available = (bytes.len() - data_start) as u64;
    // Safe for npyz now: its own (unchecked) products of the shape cannot overflow.
    let npy = npyz::NpyFile::new(bytes)
        .map_err(|e| fail(NpyProblem::Syntax(format!("NPY header: {e}")), 0))?;
    if npy.uses_pickled_array() {
        let kind = NpyProblem::Unsupported(
            "object dtype: the array is pickled, and is not unpickled".into(),
        );
        return Err(fail(kind, 0));
    }
    let order = npy.order();
    let DType::Plain(ty) = npy.dtype() else {
        let kind = NpyProblem::Unsupported(format!("structured dtype {}", npy.dtype().descr()));
        return Err(fail(kind, 0));
    };
    // A zero-byte element (`|S0`, `|V0`, `<U0`) would let any shape pass the size check.
    let size = ty.num_bytes().unwrap_or(0) as u64;
    if size == 0 {
        let kind = NpyProblem::Unsupported(format!("dtype {ty}: elements of zero bytes"));
        return Err(fail(kind, 0));
    }
    let needed = header.count.saturating_mul(size);
    if needed > available {
        let kind = NpyProblem::Truncated { needed, available };
        return Err(fail(kind, data_start));
    }
    let (shape, count) = (header.shape, header.count);
    let mut values = Vec::with_capacity(count as usize);
    macro_rules! decode {
        ($t:ty, $to_f32:expr) => {{
            let reader =
                npy.data::<$t>().map_err(|e| fail(NpyProblem::Unsupported(e.to_string()), 0))?;
            for value in reader {
                let value =
                    value.map_err(|e| fail(NpyProblem::Syntax(e.to_string()), data_start))?;
                values.push($to_f32(value));
            }
        }};
    }
    match (ty.type_char(), ty.size_field()) {
        (TypeChar::Float, 2) => decode!(npyz::half::f16, f32::from),
        (TypeChar::Float, 4) => decode!(f32, |v| v),
        (TypeChar::Float, 8) => decode!(f64, |v| v as f32),
        (TypeChar::Int, 1) => decode!(i8, f32::from),
        (TypeChar::Int, 2) => decode!(i16, f32::from),
        (TypeChar::Int, 4) => decode!(i32, |v| v as f32),
        (TypeChar::Int, 8) => decode!(i64, |v| v as f32),
        (TypeChar::Uint, 1) => decode!(u8, f32::from),
        (TypeChar::Uint, 2) => decode!(u16, f32::from),
        (TypeChar::Uint, 4) => decode!(u32, |v| v as f32),
        (TypeChar::Uint, 8) => decode!(u64, |v| v as f32),
        _ => {
            let kind = NpyProblem::Unsupported(format!("dtype {ty}: not a float or integer"));
            return Err(fail(kind, 0));
        }
    }
    if order == Order::Fortran {
        values = to_c_order(&values, &shape);
    }
    Ok(NpyArray { shape, values })
}

/// What the reader takes from an NPY header, parsed once before `npyz` sees it.
pub(crate) struct Header {
    /// The dimensions.
    pub shape: Vec<u64>,
    /// Their product: the element count.
    count: u64,
    /// The bytes of the elements, when the descr is a plain type string (`'<f4'`) and the
    /// product fits.
    data_bytes: Option<u64>,
    /// Where the elements start.
    data_start: usize,
}

impl Header {
    /// Checks what `npyz` would trust: the magic, a header length within the bytes, a header
    /// that parses as a Python dict literal, and a shape whose element count (and every partial
    /// product `npyz` forms of it) does not overflow.
    fn parse(bytes: &[u8]) -> Result<Header, (NpyProblem, usize)> {
        let data_start = header_end(bytes)?;
        let text_start = if bytes[6] == 1 { 10 } else { 12 };
        if data_start > bytes.len() {
            let needed = data_start as u64;
            return Err((
                NpyProblem::Truncated { needed, available: bytes.len() as u64 },
                text_start,
            ));
        }
        let syntax =
            |message: String| (NpyProblem::Syntax(format!("NPY header: {message}")), text_start);
        let text = &bytes[text_start..data_start];
        // As npyz reads it: one trailing newline dropped, UTF-8.
        let text = text.strip_suffix(b"\n").unwrap_or(text);
        let text = std::str::from_utf8(text).map_err(|e| syntax(format!("not UTF-8: {e}")))?;
        // The parser backtracks exponentially in the bracket nesting (33 levels: seconds); a
        // real header nests three deep at most.
        if nesting(text) > MAX_HEADER_NESTING {
            return Err(syntax(format!("nests brackets over {MAX_HEADER_NESTING} deep")));
        }
        let value: py_literal::Value = text.parse().map_err(|e| syntax(format!("{e}")))?;
        let py_literal::Value::Dict(entries) = value else {
            return Err(syntax("not a dict".into()));
        };
        let get = |key: &str| {
            entries.iter().find(|(k, _)| matches!(k, py_literal::Value::String(s) if s == key))
        };
        let Some((_, shape)) = get("shape") else {
            return Err(syntax("no `shape`".into()));
        };
        let dims = match shape {
            py_literal::Value::Tuple(d) | py_literal::Value::List(d) => d,
            _ => return Err(syntax("`shape` is not a tuple".into())),
        };
        let shape = dims
            .iter()
            .map(|d| match d {
                py_literal::Value::Integer(n) => u64::try_from(n).ok(),
                _ => None,
            })
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| syntax(format!("shape {shape} is not of whole numbers")))?;
        // Zero-length axes aside, every partial product is at most the whole one.
        let count = shape.iter().filter(|&&d| d > 0).try_fold(1u64, |n, &d| n.checked_mul(d));
        let Some(count) = count.map(|c| if shape.contains(&0) { 0 } else { c }) else {
            let kind = NpyProblem::Invalid(format!("shape {shape:?} has too many elements"));
            return Err((kind, text_start));
        };
        let item = match get("descr") {
            Some((_, py_literal::Value::String(descr))) => {
                descr.parse::<npyz::TypeStr>().ok().and_then(|t| t.num_bytes())
            }
            _ => None,
        };
        let data_bytes = item.and_then(|size| count.checked_mul(size as u64));
        Ok(Header { shape, count, data_bytes, data_start })
    }
}

/// Where an NPY image's header ends (and its data starts), from the magic, version and header
/// length; not checked against the bytes present (an NPZ member is read that far next).
fn header_end(bytes: &[u8]) -> Result<usize, (NpyProblem, usize)> {
    if !bytes.starts_with(crate::file_kind::NPY_MAGIC) {
        return Err((NpyProblem::WrongFormat("no \\x93NUMPY magic".into()), 0));
    }
    let truncated = |needed: usize| NpyProblem::Truncated {
        needed: needed as u64,
        available: bytes.len() as u64,
    };
    let (len_start, len_size) = match bytes.get(6) {
        Some(1) => (8, 2),
        Some(2 | 3) => (8, 4),
        Some(v) => return Err((NpyProblem::Unsupported(format!("NPY format version {v}")), 6)),
        None => return Err((truncated(10), 0)),
    };
    let Some(len_bytes) = bytes.get(len_start..len_start + len_size) else {
        return Err((truncated(len_start + len_size), 0));
    };
    let header_len = len_bytes.iter().rev().fold(0usize, |n, &b| (n << 8) | usize::from(b));
    Ok((len_start + len_size).saturating_add(header_len))
}

/// The deepest bracket nesting an NPY header may have: a structured dtype's list of field
/// tuples with sub-array shapes reaches four inside the dict, a nested one six.
const MAX_HEADER_NESTING: usize = 8;

/// The deepest nesting of `(`, `[` and `{` in a header, outside quoted strings.
pub(crate) fn nesting(header: &str) -> usize {
    let (mut depth, mut deepest, mut quote) = (0usize, 0, None);
    for c in header.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Reorders a Fortran-order (first axis fastest) array into C order.
fn to_c_order(values: &[f32], shape: &[u64]) -> Vec<f32> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let mut out = Vec::with_capacity(values.len());
    let mut index = vec![0usize; dims.len()];
    for _ in 0..values.len() {
        let (mut offset, mut stride) = (0, 1);
        for (i, d) in index.iter().zip(&dims) {
            offset += i * stride;
            stride *= d;
        }
        out.push(values[offset]);
        // Advance the C-order index: the last axis fastest.
        for (i, d) in index.iter_mut().zip(&dims).rev() {
            *i += 1;
            if *i < *d {
                break;
            }
            *i = 0;
        }
    }
    out
}
