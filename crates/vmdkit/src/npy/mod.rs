//! NumPy `.npy` and `.npz` files: the one place that knows their layout, for the world bakes
//! that write them and the keypoint readers that read them.

mod read;
mod write;

pub(crate) use read::{member_bytes, read_array, NpyArray, NpyProblem};

#[cfg(test)]
pub(crate) use read::nesting;
pub(crate) use write::{write_npz, Array, Data};
