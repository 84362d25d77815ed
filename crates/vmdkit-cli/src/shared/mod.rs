//! What several commands share that is not an argument (those are `crate::args`'): warnings
//! and words for messages. No command imports another; what two need lives here.
//!
//! - [`eval`] — warnings about evaluation, a range's times, a motion played as keypoints;
//! - [`messages`] — key counts, short lists, a fit's largest errors;
//! - [`fonts`] — what a drawing says of its font;
//! - [`retarget`] — the retargeting library's errors in the command line's words;
//! - [`physics`] — a motion with a model's physics baked in, with progress and a summary.

pub mod eval;
pub mod fonts;
pub mod messages;
pub mod physics;
pub mod retarget;
