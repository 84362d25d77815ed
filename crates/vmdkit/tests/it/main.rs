//! The library's integration tests, in one binary so that the library is linked once: one module per
//! idea (the module path is the file name), helpers shared by several in `common`.

use test_corpus::alloc::CountingAllocator;

// The one allocator of the binary: it counts and measures each thread's allocations for the
// modules that check them (`convert_alloc`, `damaged`, `dense_limits`, `eval_sampler`,
// `skeleton_alloc`, and `bounded_work` over the whole process).
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

mod append_place;
mod architecture;
mod bake_ik;
mod bake_physics;
mod bounded_work;
mod bvh;
mod bvh_fingers;
mod common;
mod convert_alloc;
mod convert_corpus;
mod corpus;
mod damaged;
mod dense_limits;
mod edit_corpus;
mod edit_properties;
mod eval_bake;
mod eval_oracle;
mod eval_sampler;
mod frame_overflow;
mod io_interrupt;
mod keypoints_real_files;
mod mesh_corpus;
mod model_corpus;
mod model_physics;
mod physics;
mod physics_blender;
mod physics_corpus;
mod properties;
mod retarget_accuracy;
mod retarget_face;
mod retarget_face68;
mod retarget_fingers;
mod retarget_hand_chirality;
mod retarget_handface;
mod retarget_head;
mod retarget_real;
mod retarget_sizing;
mod retarget_still;
mod send_sync;
mod skeleton_alloc;
mod skeleton_corpus;
mod skeleton_export;
mod skeleton_oracle;
