//! `--max-output-size`, for the commands whose output holds a value at every frame, and the
//! message of an output refused for its size.

use vmdkit::limit::{ByteSize, OutputTooLarge, DEFAULT_MAX_OUTPUT_BYTES};

/// `--max-output-size`, for the commands whose output holds a value at every frame.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct OutputLimit {
    /// Refuse outputs larger than SIZE (512M, 8G, 2.5GiB, 8GB or bytes): a dense output's
    /// size follows the frame numbers, and one damaged frame number can ask for terabytes
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(DEFAULT_MAX_OUTPUT_BYTES))]
    pub max_output_size: ByteSize,
}

impl OutputLimit {
    /// The limit in bytes.
    pub fn bytes(self) -> u64 {
        self.max_output_size.0
    }
}

/// The library's refusal of a dense output, about `label`, with its usual cause, the command
/// that finds it and the flag that lifts the limit.
pub fn too_large(label: &str, err: &OutputTooLarge) -> anyhow::Error {
    anyhow::anyhow!(
        "{label}: {err}; frame numbers far beyond the rest (`vmdkit check` warns of them) are \
         the usual cause, else raise the limit (--max-output-size)"
    )
}
