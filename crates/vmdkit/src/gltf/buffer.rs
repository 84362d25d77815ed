//! The binary side of a GLB: one buffer that every accessor views, and the container (a
//! 12-byte header, a JSON chunk padded with spaces, a BIN chunk padded with zeros).

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::validation::{Checked, USize64};
use json::{buffer, Accessor, Index, Root};

/// The buffer being filled, and the document whose buffer views and accessors index it.
pub(super) struct Builder {
    pub root: Root,
    pub bin: Vec<u8>,
}

/// Which GPU binding a buffer view serves: vertex attributes, indices, or neither (animation
/// data, images, inverse bind matrices).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Usage {
    Vertices,
    Indices,
    Other,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { root: Root::default(), bin: Vec::new() }
    }

    /// Appends `bytes` as one buffer view, 4-byte aligned (every component type divides 4).
    pub fn view(&mut self, bytes: &[u8], usage: Usage) -> Index<buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let target = match usage {
            Usage::Vertices => Some(Checked::Valid(buffer::Target::ArrayBuffer)),
            Usage::Indices => Some(Checked::Valid(buffer::Target::ElementArrayBuffer)),
            Usage::Other => None,
        };
        self.root.push(buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target,
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor of `count` elements of `kind` at `offset` bytes into `view` (`None`: all
    /// zeros, as glTF defines an accessor without a view).
    #[allow(clippy::too_many_arguments)]
    pub fn accessor(
        &mut self,
        view: Option<Index<buffer::View>>,
        offset: usize,
        count: usize,
        component: ComponentType,
        kind: Type,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Index<Accessor> {
        let (min, max) = match bounds {
            Some((min, max)) => (Some(min.into()), Some(max.into())),
            None => (None, None),
        };
        self.root.push(Accessor {
            buffer_view: view,
            byte_offset: (view.is_some() && offset > 0).then(|| USize64::from(offset)),
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(kind),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// A float accessor over `data` in a view of its own, with min and max when `bounded`.
    pub fn floats<const N: usize>(
        &mut self,
        data: &[[f32; N]],
        usage: Usage,
        bounded: bool,
    ) -> Index<Accessor> {
        let view = self.view(&to_bytes(data), usage);
        let bounds = bounded.then(|| bounds(data));
        self.accessor(Some(view), 0, data.len(), ComponentType::F32, vector_type(N), bounds)
    }

    /// The GLB file: header, JSON chunk, BIN chunk.
    pub fn into_glb(mut self) -> Result<Vec<u8>, json::Error> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        if !self.bin.is_empty() {
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                name: None,
                uri: None,
                extensions: None,
                extras: Default::default(),
            });
        }
        let mut text = self.root.to_vec()?;
        while !text.len().is_multiple_of(4) {
            text.push(b' ');
        }
        let bin_chunk = if self.bin.is_empty() { 0 } else { 8 + self.bin.len() };
        let total = 12 + 8 + text.len() + bin_chunk;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&text);
        if !self.bin.is_empty() {
            out.extend_from_slice(&(self.bin.len() as u32).to_le_bytes());
            out.extend_from_slice(b"BIN\0");
            out.extend_from_slice(&self.bin);
        }
        Ok(out)
    }
}

pub(super) fn vector_type(n: usize) -> Type {
    match n {
        1 => Type::Scalar,
        2 => Type::Vec2,
        3 => Type::Vec3,
        4 => Type::Vec4,
        _ => Type::Mat4,
    }
}

/// Per-component min and max.
pub(super) fn bounds<const N: usize>(data: &[[f32; N]]) -> (Vec<f32>, Vec<f32>) {
    let mut min = [f32::INFINITY; N];
    let mut max = [f32::NEG_INFINITY; N];
    for v in data {
        for i in 0..N {
            min[i] = min[i].min(v[i]);
            max[i] = max[i].max(v[i]);
        }
    }
    if data.is_empty() {
        (vec![0.0; N], vec![0.0; N])
    } else {
        (min.to_vec(), max.to_vec())
    }
}

/// Numbers, and arrays of them, written as glTF stores them: little-endian.
pub(super) trait LeBytes {
    /// Appends the value's bytes.
    fn put(&self, out: &mut Vec<u8>);
}

macro_rules! le_bytes {
    ($($t:ty),*) => {$(
        impl LeBytes for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
le_bytes!(u8, u16, u32, f32);

impl<T: LeBytes, const N: usize> LeBytes for [T; N] {
    fn put(&self, out: &mut Vec<u8>) {
        for v in self {
            v.put(out);
        }
    }
}

/// `data`'s bytes.
pub(super) fn to_bytes<T: LeBytes>(data: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(std::mem::size_of_val(data));
    for v in data {
        v.put(&mut out);
    }
    out
}
