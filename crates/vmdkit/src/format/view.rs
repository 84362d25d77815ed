//! A zero-copy view of a VMD: the layout is validated once, then records are read in place.

use super::layout::{Layout, ReadOptions, Section};
use super::records::{
    bone_refs, fixed_refs, BoneRef, CameraRef, LightRef, MorphRef, PropertyRef, ShadowRef,
};
use super::repair::Repair;
use super::scan::scan;
use super::Header;
use crate::error::Error;

/// A validated VMD over borrowed bytes (for example a memory-mapped file).
#[derive(Clone, Debug)]
pub struct MotionView<'a> {
    data: &'a [u8],
    layout: Layout,
    repairs: Vec<Repair>,
}

impl<'a> MotionView<'a> {
    /// Validates the layout strictly. Costs O(1) per fixed-size section plus a walk over the
    /// property records.
    pub fn new(data: &'a [u8]) -> Result<Self, Error> {
        Self::with_options(data, ReadOptions::STRICT)
    }

    /// Validates the layout, repairing what lenient reading can repair.
    pub fn with_options(data: &'a [u8], options: ReadOptions) -> Result<Self, Error> {
        let (layout, repairs) = scan(data, options)?;
        Ok(MotionView { data, layout, repairs })
    }

    /// The whole file's bytes the view was made from.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Where each present section's count and records lie in [`data`](Self::data).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What lenient validation repaired (empty for strict views).
    pub fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// The signature and model name fields. A signature that lenient reading did not
    /// recognise is replaced by the version 2 one, so that writing gives a valid file.
    pub fn header(&self) -> Header {
        let mut header = Header::from_bytes(self.data, self.layout.version);
        if self.repairs.iter().any(|r| matches!(r, Repair::UnknownSignature { .. })) {
            header.signature = Header::default().signature;
        }
        header
    }

    /// Number of records in `section` (0 when absent).
    pub fn count(&self, section: Section) -> usize {
        self.layout.span(section).map_or(0, |s| s.count as usize)
    }

    /// The bytes after the last section.
    pub fn trailing(&self) -> &'a [u8] {
        &self.data[self.layout.end..]
    }

    pub(crate) fn records(&self, section: Section) -> &'a [u8] {
        self.layout.span(section).map_or(&[], |s| &self.data[s.start..s.end])
    }

    /// Bone records in place, in file order.
    pub fn bones(&self) -> impl ExactSizeIterator<Item = BoneRef<'a>> + 'a {
        bone_refs(self.records(Section::Bone))
    }

    /// Morph records in place, in file order.
    pub fn morphs(&self) -> impl ExactSizeIterator<Item = MorphRef<'a>> + 'a {
        fixed_refs(self.records(Section::Morph), MorphRef)
    }

    /// Camera records in place, in file order.
    pub fn cameras(&self) -> impl ExactSizeIterator<Item = CameraRef<'a>> + 'a {
        fixed_refs(self.records(Section::Camera), CameraRef)
    }

    /// Light records in place, in file order.
    pub fn lights(&self) -> impl ExactSizeIterator<Item = LightRef<'a>> + 'a {
        fixed_refs(self.records(Section::Light), LightRef)
    }

    /// Self-shadow records in place, in file order.
    pub fn shadows(&self) -> impl ExactSizeIterator<Item = ShadowRef<'a>> + 'a {
        fixed_refs(self.records(Section::SelfShadow), ShadowRef)
    }

    /// Property records in place, in file order; each is walked once to find the next.
    pub fn properties(&self) -> PropertyIter<'a> {
        PropertyIter { rest: self.records(Section::Property) }
    }
}

/// Iterates property records, whose lengths the layout scan has already checked.
#[derive(Clone, Debug)]
pub struct PropertyIter<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for PropertyIter<'a> {
    type Item = PropertyRef<'a>;

    fn next(&mut self) -> Option<PropertyRef<'a>> {
        let len = super::layout::property_record_len(self.rest).ok()?;
        let (record, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(PropertyRef(record))
    }
}
