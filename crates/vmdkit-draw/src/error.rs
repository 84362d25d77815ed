//! What can go wrong when drawing.

use std::path::PathBuf;

/// A picture that cannot be made or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DrawError {
    /// A requested size that is zero or too large to allocate sensibly.
    #[error("image size {width}x{height} is not allowed (1 to {max} pixels a side)")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// The largest side allowed.
        max: u32,
    },
    /// GIF frames are limited to 65535 pixels a side by the format.
    #[error("a GIF frame is at most 65535 pixels a side, not {width}x{height}")]
    GifSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The PNG encoder failed (usually the writer underneath).
    #[error("cannot encode the PNG: {0}")]
    Png(#[from] png::EncodingError),
    /// The GIF encoder failed (usually the writer underneath).
    #[error("cannot encode the GIF: {0}")]
    Gif(#[from] gif::EncodingError),
    /// Writing the output failed.
    #[error("cannot write: {0}")]
    Io(#[from] std::io::Error),
    /// A font file that could not be read or parsed.
    #[error("cannot use the font {path}: {reason}")]
    Font {
        /// The font file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}
