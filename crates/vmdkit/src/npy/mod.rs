//! NumPy `.npy` and `.npz` files: the one place that knows their layout, for the world bakes
//! that write them and the keypoint readers that read them.

mod write;

pub(crate) use write::{write_npz, Array, Data};
