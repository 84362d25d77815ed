//! The retargeting library's errors as `retarget` and `keypoints` word them.

use vmdkit::keypoints::JointLayout;
use vmdkit::retarget::RetargetError;

/// The library's error, with the input, model or layout it is about.
pub fn explain(
    err: RetargetError,
    input: &str,
    model: &str,
    layout: &JointLayout,
) -> anyhow::Error {
    match &err {
        RetargetError::TooLarge(e) => crate::args::limit::too_large(input, e),
        RetargetError::MissingBones(_) => anyhow::anyhow!("{model}: {err}"),
        RetargetError::JointCount { .. } | RetargetError::LayoutTooSparse { .. } => {
            crate::error::usage(format!("{err}; pass --layout to choose another"))
        }
        RetargetError::Option(_) => crate::error::usage(err.to_string()),
        _ => anyhow::anyhow!("cannot retarget with layout {}: {err}", layout.name),
    }
}
