//! Rigid bodies and joints of PMX and PMD models: files built here byte by byte read back
//! field for field (PMD body positions converted to model space), damaged physics sections give
//! typed errors at every cut, `physics_problems` names bad records, and every corpus model's
//! bodies and joints equal what `mmd-anim-format`, an independent reader, finds in the file.

use glam::Vec3;
use test_corpus::corpus_or_skip;
use vmdkit::model::*;

/// Little-endian bytes for the fixtures.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn f32s(&mut self, vs: &[f32]) -> &mut Self {
        vs.iter().for_each(|v| self.0.extend(v.to_le_bytes()));
        self
    }
    /// A PMX UTF-8 text field.
    fn text(&mut self, s: &str) -> &mut Self {
        self.i32(s.len() as i32);
        self.0.extend(s.as_bytes());
        self
    }
    /// A PMD fixed-width CP932 field.
    fn fixed(&mut self, s: &str, n: usize) -> &mut Self {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(s);
        let mut field = bytes.to_vec();
        field.resize(n, 0);
        self.0.extend(field);
        self
    }
}

/// The two bodies and the joint both fixtures hold, as PMX stores them.
fn expected_bodies() -> [RigidBody; 2] {
    [
        RigidBody {
            name: "頭".into(),
            name_en: "head".into(),
            bone: Some(1),
            group: 3,
            mask: 0xFFF7,
            shape: RigidShape::Box,
            size: Vec3::new(1.5, 2.5, 3.5),
            position: Vec3::new(0.25, 12.0, -0.5),
            rotation: Vec3::new(0.1, -0.2, 0.3),
            mass: 2.0,
            linear_damping: 0.5,
            angular_damping: 0.75,
            restitution: 0.125,
            friction: 0.625,
            mode: RigidMode::FollowBone,
        },
        RigidBody {
            name: "髪".into(),
            name_en: "hair".into(),
            bone: None,
            group: 15,
            mask: 0x7FFF,
            shape: RigidShape::Capsule,
            size: Vec3::new(0.4, 2.0, 0.0),
            position: Vec3::new(-1.0, 14.5, 0.75),
            rotation: Vec3::new(1.5, 0.0, -1.25),
            mass: 0.5,
            linear_damping: 0.9,
            angular_damping: 0.99,
            restitution: 0.0,
            friction: 0.5,
            mode: RigidMode::PhysicsWithBonePosition,
        },
    ]
}

fn expected_joint(kind: u8) -> Joint {
    Joint {
        name: "首".into(),
        name_en: "neck".into(),
        kind,
        body_a: Some(0),
        body_b: Some(1),
        position: Vec3::new(0.0, 13.0, 0.25),
        rotation: Vec3::new(0.0, 0.5, 0.0),
        linear_min: Vec3::new(-0.1, -0.2, -0.3),
        linear_max: Vec3::new(0.1, 0.2, 0.3),
        angular_min: Vec3::new(-0.5, -0.25, -0.125),
        angular_max: Vec3::new(0.5, 0.25, 0.125),
        linear_spring: Vec3::new(10.0, 20.0, -30.0),
        angular_spring: Vec3::new(100.0, 200.0, 300.0),
    }
}

const BONES: [(&str, [f32; 3]); 3] =
    [("センター", [0.0, 8.0, 0.0]), ("頭", [0.0, 15.0, 0.5]), ("髪", [1.0, 16.0, 0.0])];

fn vec(v: Vec3) -> [f32; 3] {
    v.to_array()
}

/// A PMX 2.0 (UTF-8, every index `width` bytes) with three bones and no mesh, then the two
/// bodies and the joint. Returns the bytes and where the physics sections start.
fn pmx(width: u8, joint_kind: u8) -> (Vec<u8>, usize) {
    let mut w = Bytes::default();
    w.0.extend(b"PMX ");
    w.f32s(&[2.0]).u8(8).u8(1).u8(0);
    for _ in 0..6 {
        w.u8(width);
    }
    let index = |w: &mut Bytes, v: i32| {
        match width {
            1 => w.u8(v as u8),
            2 => w.u16(v as u16),
            _ => w.i32(v),
        };
    };
    w.text("物理").text("physics").text("").text("");
    w.i32(0).i32(0).i32(0).i32(0); // vertices, faces, textures, materials
    w.i32(BONES.len() as i32);
    for (i, (name, position)) in BONES.iter().enumerate() {
        w.text(name).text("").f32s(position);
        index(&mut w, i as i32 - 1);
        w.i32(0).u16(0x001B);
        index(&mut w, -1);
    }
    w.i32(0).i32(0); // morphs, display frames
    let physics = w.0.len();
    w.i32(2);
    for b in expected_bodies() {
        w.text(&b.name).text(&b.name_en);
        index(&mut w, b.bone.map_or(-1, |b| b as i32));
        w.u8(b.group).u16(b.mask).u8(b.shape.file_value());
        w.f32s(&vec(b.size)).f32s(&vec(b.position)).f32s(&vec(b.rotation));
        w.f32s(&[b.mass, b.linear_damping, b.angular_damping, b.restitution, b.friction]);
        w.u8(b.mode.file_value());
    }
    let j = expected_joint(joint_kind);
    w.i32(1).text(&j.name).text(&j.name_en).u8(j.kind);
    index(&mut w, 0);
    index(&mut w, 1);
    for v in [j.position, j.rotation, j.linear_min, j.linear_max, j.angular_min, j.angular_max] {
        w.f32s(&vec(v));
    }
    w.f32s(&vec(j.linear_spring)).f32s(&vec(j.angular_spring));
    (w.0, physics)
}

/// A PMD with the same three bones, no mesh, no English names, then the toon names, the two
/// bodies (positions stored relative to their bones, the second to bone 0 for having none) and
/// the joint. Returns the bytes and where the toon names start.
fn pmd() -> (Vec<u8>, usize) {
    let mut w = Bytes::default();
    w.0.extend(b"Pmd");
    w.f32s(&[1.0]).fixed("物理", 20).fixed("", 256);
    w.u32(0).u32(0).u32(0); // vertices, faces, materials
    w.u16(BONES.len() as u16);
    for (i, (name, position)) in BONES.iter().enumerate() {
        let parent = if i == 0 { 0xFFFF } else { 0 };
        w.fixed(name, 20).u16(parent).u16(0).u8(1).u16(0).f32s(position);
    }
    w.u16(0).u16(0); // IK, skins
    w.u8(0).u8(0).u32(0); // skin display, frame names, frame entries
    w.u8(0); // no English names
    let toon = w.0.len();
    w.0.extend([0u8; 1000]);
    w.u32(2);
    for b in expected_bodies() {
        let origin = Vec3::from(BONES[b.bone.unwrap_or(0)].1);
        w.fixed(&b.name, 20).u16(b.bone.map_or(0xFFFF, |b| b as u16));
        w.u8(b.group).u16(b.mask).u8(b.shape.file_value());
        w.f32s(&vec(b.size)).f32s(&vec(b.position - origin)).f32s(&vec(b.rotation));
        w.f32s(&[b.mass, b.linear_damping, b.angular_damping, b.restitution, b.friction]);
        w.u8(b.mode.file_value());
    }
    let j = expected_joint(0);
    w.u32(1).fixed(&j.name, 20).u32(0).u32(1);
    for v in [j.position, j.rotation, j.linear_min, j.linear_max, j.angular_min, j.angular_max] {
        w.f32s(&vec(v));
    }
    w.f32s(&vec(j.linear_spring)).f32s(&vec(j.angular_spring));
    (w.0, toon)
}

#[test]
fn model_physics_pmx_bodies_and_joints_read_back_exactly_at_every_index_width() {
    for width in [1, 2, 4] {
        // A PMX 2.1 joint type other than the spring is kept as its number.
        for kind in [0, 3] {
            let (data, _) = pmx(width, kind);
            let model = Model::parse(&data).unwrap();
            assert_eq!(model.rigid_bodies, expected_bodies(), "width {width}");
            assert_eq!(model.joints, [expected_joint(kind)], "width {width}");
            assert_eq!((model.counts.rigid_bodies, model.counts.joints), (2, 1));
            assert_eq!(model.physics_problems(), [], "width {width}");
        }
    }
}

#[test]
fn model_physics_pmd_bodies_are_placed_in_model_space_and_joints_read_back_exactly() {
    let (data, _) = pmd();
    let model = Model::parse(&data).unwrap();
    let mut expected = expected_bodies();
    // PMD has no English names in this file.
    expected.iter_mut().for_each(|b| b.name_en.clear());
    assert_eq!(model.rigid_bodies, expected);
    let mut joint = expected_joint(0);
    joint.name_en.clear();
    assert_eq!(model.joints, [joint]);
    assert_eq!((model.counts.rigid_bodies, model.counts.joints), (2, 1));
    assert_eq!(model.physics_problems(), []);
}

/// Every cut inside the physics sections is an error naming a physics section and an offset
/// inside the file, never a panic; for PMD the cuts between its optional blocks read.
#[test]
fn model_physics_every_cut_of_the_physics_sections_is_a_typed_error() {
    for width in [1, 2, 4] {
        let (data, start) = pmx(width, 0);
        for len in start..data.len() {
            let err = Model::parse(&data[..len]).expect_err("a cut PMX must not read");
            assert!(
                matches!(err.section, ModelSection::RigidBodies | ModelSection::Joints),
                "cut at {len}: {err}"
            );
            assert!(err.offset <= len as u64, "cut at {len}: {err}");
        }
    }
    let (data, toon) = pmd();
    let bodies = toon + 1000;
    let joints = bodies + 4 + 2 * 83;
    for len in toon..data.len() {
        match Model::parse(&data[..len]) {
            Ok(model) => {
                assert!([toon, bodies, joints].contains(&len), "cut at {len} read");
                let expected = if len == joints { 2 } else { 0 };
                assert_eq!(model.rigid_bodies.len(), expected);
                assert!(model.joints.is_empty());
            }
            Err(err) => {
                assert!(err.offset <= len as u64, "cut at {len}: {err}");
                assert!(
                    matches!(
                        err.section,
                        ModelSection::ToonTextures
                            | ModelSection::RigidBodies
                            | ModelSection::Joints
                    ),
                    "cut at {len}: {err}"
                );
            }
        }
    }
}

/// The offset of the `n`th body's shape byte in [`pmx`] with 1-byte indices.
fn pmx_shape_at(data: &[u8], name: &str) -> usize {
    let at = data.windows(name.len()).rposition(|w| w == name.as_bytes()).unwrap();
    // the name, the English name (length + bytes), bone, group, mask
    let en = i32::from_le_bytes(data[at + name.len()..][..4].try_into().unwrap()) as usize;
    at + name.len() + 4 + en + 1 + 1 + 2
}

#[test]
fn model_physics_unknown_shapes_modes_and_negative_indices_are_typed_errors() {
    let (data, _) = pmx(1, 0);
    let shape = pmx_shape_at(&data, "髪");
    let mut bad = data.clone();
    bad[shape] = 3;
    let err = Model::parse(&bad).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::UnknownKind { what: "rigid body shape", value: 3 });
    assert_eq!(
        (err.section, err.record, err.offset),
        (ModelSection::RigidBodies, Some(1), shape as u64)
    );
    let mode = shape + 1 + 36 + 20;
    let mut bad = data.clone();
    bad[mode] = 7;
    let err = Model::parse(&bad).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::UnknownKind { what: "rigid body mode", value: 7 });
    assert_eq!((err.record, err.offset), (Some(1), mode as u64));
    // A bone index of −2 names nothing at all (−1 is none, a large one a problem).
    let mut bad = data.clone();
    bad[shape - 4] = 0xFE;
    let err = Model::parse(&bad).unwrap_err();
    assert!(matches!(err.kind, ModelErrorKind::BadIndex { index: -2, .. }), "{err}");
    assert_eq!(err.offset, shape as u64 - 4);
    // PMD: an unknown shape.
    let (data, toon) = pmd();
    let shape = toon + 1000 + 4 + 20 + 2 + 1 + 2;
    let mut bad = data.clone();
    bad[shape] = 9;
    let err = Model::parse(&bad).unwrap_err();
    assert_eq!(err.kind, ModelErrorKind::UnknownKind { what: "rigid body shape", value: 9 });
    assert_eq!(
        (err.section, err.record, err.offset),
        (ModelSection::RigidBodies, Some(0), shape as u64)
    );
    // A count larger than the bytes left is refused before anything is allocated.
    let mut bad = data.clone();
    bad[toon + 1000..][..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Model::parse(&bad).unwrap_err();
    assert!(matches!(err.kind, ModelErrorKind::CountTooLarge { .. }), "{err}");
}

#[test]
fn model_physics_problems_name_bad_sizes_masses_indices_and_values() {
    let (data, _) = pmx(2, 0);
    let mut model = Model::parse(&data).unwrap();
    model.rigid_bodies[0].size.y = f32::NAN;
    model.rigid_bodies[0].bone = Some(3);
    model.rigid_bodies[1].mass = -1.0;
    model.rigid_bodies[1].group = 16;
    model.rigid_bodies[1].position.z = f32::INFINITY;
    model.joints[0].body_b = Some(0);
    model.joints[0].angular_max.x = f32::NAN;
    model.joints.push(Joint { body_a: None, body_b: Some(5), ..expected_joint(0) });
    let problems = model.physics_problems();
    let kinds: Vec<(PhysicsItem, usize, PhysicsProblemKind)> =
        problems.iter().map(|p| (p.item, p.index, p.kind.clone())).collect();
    use PhysicsItem::{Joint as J, RigidBody as B};
    use PhysicsProblemKind::*;
    let size = model.rigid_bodies[0].size;
    // NaN is not equal to itself: compare the size's bits apart.
    assert!(matches!(&kinds[1].2, BadSize { shape: RigidShape::Box, size: s }
        if s.to_array().map(f32::to_bits) == size.to_array().map(f32::to_bits)));
    let mut rest = kinds.clone();
    rest.remove(1);
    assert_eq!(
        rest,
        [
            (B, 0, BoneOutOfRange { bone: 3, bones: 3 }),
            (B, 1, GroupOutOfRange { group: 16 }),
            (B, 1, BadMass { mass: -1.0 }),
            (B, 1, NotFinite { field: "position" }),
            (J, 0, SameBodies { body: 0 }),
            (J, 0, NotFinite { field: "angular upper limit" }),
            (J, 1, MissingBody { end: JointEnd::A }),
            (J, 1, BodyOutOfRange { end: JointEnd::B, body: 5, bodies: 2 }),
        ]
    );
    assert_eq!(
        problems[3].to_string(),
        "rigid body 1 \"髪\": mass -1 of a simulated body is not positive"
    );
    assert_eq!(
        problems[1].to_string(),
        "rigid body 0 \"頭\": box size [1.5, NaN, 3.5] is not positive"
    );
    assert_eq!(
        problems[8].to_string(),
        "joint 1 \"首\": body B index 5 is out of range (there are 2)"
    );
    // Zero mass makes a simulated body immovable; on a body that follows its bone it is unused.
    let mut model = Model::parse(&data).unwrap();
    model.rigid_bodies[1].mass = 0.0;
    model.rigid_bodies[0].mass = f32::NAN;
    let problems = model.physics_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].kind, BadMass { mass: 0.0 });
    // A capsule of height 0 is a sphere, which is fine; a negative radius is not.
    let mut model = Model::parse(&data).unwrap();
    model.rigid_bodies[1].size = Vec3::new(0.5, 0.0, f32::NAN);
    assert_eq!(model.physics_problems(), []);
    model.rigid_bodies[1].size.x = -0.5;
    assert_eq!(model.physics_problems().len(), 1);
}

/// The stored bytes of a NaN size and a negative mass read as such and are reported.
#[test]
fn model_physics_nan_sizes_and_negative_masses_in_the_file_are_reported() {
    let (mut data, _) = pmx(1, 0);
    let shape = pmx_shape_at(&data, "髪");
    data[shape + 1..][..4].copy_from_slice(&f32::NAN.to_le_bytes());
    data[shape + 37..][..4].copy_from_slice(&(-3.0f32).to_le_bytes());
    let model = Model::parse(&data).unwrap();
    let text: Vec<String> = model.physics_problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        [
            "rigid body 1 \"髪\": capsule size [NaN, 2, 0] is not positive",
            "rigid body 1 \"髪\": mass -3 of a simulated body is not positive",
        ]
    );
}

fn same3(a: Vec3, b: [f32; 3]) -> bool {
    a.to_array().iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Every corpus model: the bodies and joints equal, field for field, what `mmd-anim-format`
/// reads from the same bytes (PMD positions: its stored offsets plus the bone's position), and
/// the counts agree; a table of bodies, joints and problems per model is printed.
#[test]
fn model_physics_corpus_models_agree_with_an_independent_reader() {
    let Some(manifest) = corpus_or_skip("model physics") else {
        return;
    };
    let mut checked = 0;
    let mut with_physics = 0;
    println!("{:<60} {:>6} {:>6} {:>8}", "model", "bodies", "joints", "problems");
    for entry in manifest.of_kind("pmx").chain(manifest.of_kind("pmd")) {
        let data = std::fs::read(&entry.path).unwrap();
        let Ok(model) = Model::parse(&data) else { continue };
        let problems = model.physics_problems();
        println!(
            "{:<60} {:>6} {:>6} {:>8}",
            entry.local_path.rsplit('/').next().unwrap(),
            model.rigid_bodies.len(),
            model.joints.len(),
            problems.len()
        );
        for p in &problems {
            println!("    {p}");
        }
        assert_eq!(model.counts.rigid_bodies, model.rigid_bodies.len());
        assert_eq!(model.counts.joints, model.joints.len());
        if data.starts_with(b"PMX ") {
            compare_pmx(&entry.local_path, &data, &model);
        } else {
            compare_pmd(&entry.local_path, &data, &model);
        }
        checked += 1;
        with_physics += usize::from(!model.rigid_bodies.is_empty());
    }
    println!("{checked} models compared, {with_physics} with rigid bodies");
    assert!(checked >= 12, "only {checked} corpus models compared");
    assert!(with_physics >= 2, "only {with_physics} corpus models have rigid bodies");
}

fn index(i: i64) -> Option<usize> {
    (i != -1).then_some(i as usize)
}

fn compare_pmx(at: &str, data: &[u8], model: &Model) {
    let oracle = mmd_anim_format::parse_pmx_model(data).unwrap_or_else(|e| panic!("{at}: {e:?}"));
    assert_eq!(model.rigid_bodies.len(), oracle.rigid_bodies.len(), "{at}");
    assert_eq!(model.joints.len(), oracle.joints.len(), "{at}");
    for (b, o) in model.rigid_bodies.iter().zip(&oracle.rigid_bodies) {
        assert_eq!((&b.name, &b.name_en), (&o.name, &o.english_name), "{at}");
        assert_eq!(b.bone, index(o.bone_index.into()), "{at} {}", b.name);
        assert_eq!((b.group, b.mask, b.shape.name()), (o.group, o.mask, o.shape.as_str()));
        let mode = ["static", "dynamic", "dynamicBone"][b.mode.file_value() as usize];
        assert_eq!(mode, o.mode, "{at} {}", b.name);
        assert!(same3(b.size, o.size) && same3(b.position, o.position), "{at} {}", b.name);
        assert!(same3(b.rotation, o.rotation), "{at} {}", b.name);
        let ours = [b.mass, b.linear_damping, b.angular_damping, b.restitution, b.friction];
        let theirs = [o.mass, o.linear_damping, o.angular_damping, o.restitution, o.friction];
        assert_eq!(ours.map(f32::to_bits), theirs.map(f32::to_bits), "{at} {}", b.name);
    }
    let kinds = ["generic6dofSpring", "generic6dof", "point2point", "coneTwist", "slider", "hinge"];
    for (j, o) in model.joints.iter().zip(&oracle.joints) {
        assert_eq!((&j.name, &j.name_en), (&o.name, &o.english_name), "{at}");
        assert_eq!(kinds.get(j.kind as usize).copied().unwrap_or("unknown"), o.kind, "{at}");
        assert_eq!(j.body_a, index(o.rigid_body_index_a.into()), "{at} {}", j.name);
        assert_eq!(j.body_b, index(o.rigid_body_index_b.into()), "{at} {}", j.name);
        let ours = j.vectors();
        let theirs = [
            o.position,
            o.rotation,
            o.translation_lower_limit,
            o.translation_upper_limit,
            o.rotation_lower_limit,
            o.rotation_upper_limit,
            o.spring_translation_factor,
            o.spring_rotation_factor,
        ];
        assert!(ours.iter().zip(theirs).all(|(a, b)| same3(*a, b)), "{at} {}", j.name);
    }
}

fn compare_pmd(at: &str, data: &[u8], model: &Model) {
    let oracle = mmd_anim_format::parse_pmd_model(data).unwrap_or_else(|e| panic!("{at}: {e:?}"));
    assert_eq!(model.rigid_bodies.len(), oracle.rigid_bodies.len(), "{at}");
    assert_eq!(model.joints.len(), oracle.joints.len(), "{at}");
    let bones = &oracle.skeleton.bones;
    for (b, o) in model.rigid_bodies.iter().zip(&oracle.rigid_bodies) {
        assert_eq!(b.name, o.name, "{at}");
        assert_eq!(b.bone, index(o.bone_index.into()), "{at} {}", b.name);
        assert_eq!((b.group, b.mask, b.shape.name()), (o.group, o.mask, o.shape.as_str()));
        let origin =
            bones.get(b.bone.unwrap_or(0)).or(bones.first()).map_or([0.0; 3], |b| b.position);
        let position = Vec3::from(origin) + Vec3::from(o.position);
        assert!(same3(b.position, position.to_array()), "{at} {}", b.name);
        assert!(same3(b.size, o.size) && same3(b.rotation, o.rotation), "{at} {}", b.name);
        let ours = [b.mass, b.linear_damping, b.angular_damping, b.restitution, b.friction];
        let theirs = [o.mass, o.linear_damping, o.angular_damping, o.restitution, o.friction];
        assert_eq!(ours.map(f32::to_bits), theirs.map(f32::to_bits), "{at} {}", b.name);
    }
    for (j, o) in model.joints.iter().zip(&oracle.joints) {
        assert_eq!(j.name, o.name, "{at}");
        assert_eq!(j.body_a, Some(o.rigid_body_index_a as usize), "{at}");
        assert_eq!(j.body_b, Some(o.rigid_body_index_b as usize), "{at}");
        let ours = j.vectors();
        let theirs = [
            o.position,
            o.rotation,
            o.translation_min,
            o.translation_max,
            o.rotation_min,
            o.rotation_max,
            o.spring_translation,
            o.spring_rotation,
        ];
        assert!(ours.iter().zip(theirs).all(|(a, b)| same3(*a, b)), "{at} {}", j.name);
    }
}

/// Where the physics sections of a corpus model start: PMD's toon names, PMX's rigid body
/// count, found from the end of the file by the records' sizes (the models checked end with
/// their joints), and checked against the count stored there.
fn physics_start(data: &[u8], model: &Model) -> usize {
    if data.starts_with(b"Pmd") {
        let start =
            data.len() - (1000 + 4 + 83 * model.rigid_bodies.len() + 4) - 124 * model.joints.len();
        let count = u32::from_le_bytes(data[start + 1000..][..4].try_into().unwrap());
        assert_eq!(count as usize, model.rigid_bodies.len());
        return start;
    }
    let (utf8, bone, body) = (data[9] == 1, data[9 + 5] as usize, data[9 + 7] as usize);
    let text = |s: &str| 4 + if utf8 { s.len() } else { s.encode_utf16().count() * 2 };
    let bodies: usize =
        model.rigid_bodies.iter().map(|b| text(&b.name) + text(&b.name_en) + bone + 61).sum();
    let joints: usize =
        model.joints.iter().map(|j| text(&j.name) + text(&j.name_en) + 1 + 2 * body + 96).sum();
    let start = data.len() - (4 + bodies + 4 + joints);
    let count = i32::from_le_bytes(data[start..][..4].try_into().unwrap());
    assert_eq!(count as usize, model.rigid_bodies.len());
    start
}

/// Every cut inside the physics sections of the corpus models that have them is a typed error
/// in those sections (for PMD, a cut between its optional blocks reads without them).
#[test]
fn model_physics_every_cut_of_corpus_physics_sections_is_a_typed_error() {
    let Some(manifest) = corpus_or_skip("model physics cuts") else {
        return;
    };
    let mut cuts = 0;
    for entry in manifest.of_kind("pmx").chain(manifest.of_kind("pmd")) {
        let data = std::fs::read(&entry.path).unwrap();
        let Ok(model) = Model::parse(&data) else { continue };
        if model.rigid_bodies.is_empty() {
            continue;
        }
        let start = physics_start(&data, &model);
        let pmd = data.starts_with(b"Pmd");
        let blocks = [start, start + 1000, start + 1004 + 83 * model.rigid_bodies.len()];
        for len in start..data.len() {
            cuts += 1;
            match Model::parse(&data[..len]) {
                Ok(_) => {
                    assert!(pmd && blocks.contains(&len), "{} cut at {len} read", entry.local_path)
                }
                Err(err) => {
                    assert!(err.offset <= len as u64, "{} cut at {len}: {err}", entry.local_path);
                    assert!(
                        err.section >= ModelSection::ToonTextures,
                        "{} cut at {len}: {err}",
                        entry.local_path
                    );
                }
            }
        }
    }
    println!("{cuts} cuts");
}
