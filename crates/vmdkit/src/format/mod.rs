//! The VMD file format: layout, records, reading, zero-copy viewing and writing.
//!
//! Reading is layered: [`scan_layout`] finds and validates the sections, [`MotionView`] reads
//! records in place, and [`Motion`] holds them decoded. Writing is the exact inverse.

pub(crate) mod interp;
mod keyframe;
pub(crate) mod layout;
mod motion;
mod plausible;
pub(crate) mod records;
mod repair;
mod scan;
mod view;
mod writer;

pub use interp::{
    BoneCurve, BoneCurvePoints, BoneInterpolation, CameraCurve, CameraCurvePoints,
    CameraInterpolation, PhysicsToggle,
};
pub use keyframe::{Keyframe, SectionMapper, SectionVisitor};
pub use layout::{
    Layout, ReadOptions, Section, SectionSpan, Version, IK_ENTRY_LEN, PROPERTY_HEAD_LEN,
    SIGNATURE_LEN, SIGNATURE_V1, SIGNATURE_V2,
};
pub use motion::{Header, Motion, Parsed, CAMERA_MODEL_NAME};
pub use records::{
    bone_refs, BoneKey, BoneRef, CameraKey, CameraRef, IkState, LightKey, LightRef, MorphKey,
    MorphRef, PropertyKey, PropertyRef, ShadowKey, ShadowRef,
};
pub use repair::Repair;
pub use scan::scan as scan_layout;
pub use view::{MotionView, PropertyIter};
