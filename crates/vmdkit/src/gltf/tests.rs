use super::*;
use crate::example::{example_model, example_motion};
use crate::model::{Material, VertexMorph, VertexWeights};
use glam::{Vec2, Vec3, Vec4};
use serde_json::Value;

/// The JSON chunk and BIN chunk of a GLB, after checking the container's lengths and padding.
fn chunks(glb: &[u8]) -> (Value, &[u8]) {
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(u32::from_le_bytes(glb[4..8].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(json_len % 4, 0);
    assert_eq!(&glb[16..20], b"JSON");
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    if rest.is_empty() {
        return (json, rest);
    }
    let bin_len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
    assert_eq!(&rest[4..8], b"BIN\0");
    assert_eq!(bin_len % 4, 0);
    assert_eq!(rest.len(), 8 + bin_len);
    (json, &rest[8..])
}

/// A mesh of `vertices` vertices over the example model's first two bones, one triangle.
fn mesh(vertices: usize) -> Mesh {
    Mesh {
        positions: (0..vertices).map(|i| Vec3::new(i as f32, 1.0, 2.0)).collect(),
        normals: vec![Vec3::new(0.0, 0.0, 2.0); vertices],
        uvs: vec![Vec2::ZERO; vertices],
        weights: vec![
            VertexWeights {
                kind: WeightKind::Sdef,
                bones: [0, 1, 0, 0],
                weights: [0.5, 0.5, 0.0, 0.0]
            };
            vertices
        ],
        indices: vec![0, 1, 2],
        textures: vec!["missing.png".to_string()],
        materials: vec![Material {
            name: "skin".to_string(),
            diffuse: Vec4::new(1.0, 0.5, 0.5, 1.0),
            texture: Some(0),
            double_sided: false,
            index_count: 3,
        }],
        vertex_morphs: vec![VertexMorph {
            name: "あ".to_string(),
            name_cp932: crate::model::key_name("あ"),
            offsets: vec![(2, Vec3::new(0.0, 0.0, 1.0)), (1, Vec3::X), (2, Vec3::Y)],
        }],
        group_morphs: Vec::new(),
    }
}

fn export(mesh: Option<&Mesh>, options: &GltfOptions) -> Result<GltfExport, GltfError> {
    let (model, motion) = (example_model(), example_motion());
    to_glb(
        &GltfInput { model: &model, mesh, motion: Some(&motion), camera: Some(&motion) },
        options,
    )
}

#[test]
fn gltf_nodes_skin_and_animation_follow_the_model_and_motion() {
    let (model, motion) = (example_model(), example_motion());
    let bones = model.bones.len();
    let mesh = mesh(3);
    let exported = export(Some(&mesh), &GltfOptions::default()).unwrap();
    let (json, _) = chunks(&exported.glb);
    // bones, the armature root, the mesh, the camera
    assert_eq!(json["nodes"].as_array().unwrap().len(), bones + 3);
    assert_eq!(json["nodes"][0]["name"], model.bones[0].name.as_str());
    assert_eq!(json["skins"][0]["joints"].as_array().unwrap().len(), bones);
    let channels = json["animations"][0]["channels"].as_array().unwrap();
    // translation and rotation per bone, the morph weights, the camera's two
    assert_eq!(channels.len(), 2 * bones + 1 + 2);
    let input = json["animations"][0]["samplers"][0]["input"].as_u64().unwrap() as usize;
    let last = MotionSampler::new(&motion).last_frame().unwrap();
    assert_eq!(json["accessors"][input]["count"], last + 1);
    assert_eq!(json["accessors"][input]["max"][0].as_f64().unwrap() as f32, last as f32 / 30.0);
    // Rest translations are relative to the parent, in metres with Z mirrored.
    let child = model.bones.iter().position(|b| b.parent.is_some()).unwrap();
    let parent = model.bones[child].parent.unwrap();
    let offset = (model.bones[child].position - model.bones[parent].position) * 0.08;
    let t = &json["nodes"][child]["translation"];
    assert!((t[2].as_f64().unwrap() as f32 + offset.z).abs() < 1e-6);
    assert_eq!(json["meshes"][0]["extras"]["targetNames"][0], "あ");
}

use crate::eval::MotionSampler;

#[test]
fn gltf_reports_what_it_approximates_and_skips() {
    let mesh = mesh(3);
    let dir = std::env::temp_dir();
    let options = GltfOptions {
        textures: Textures::Reference { model_dir: dir.clone(), output_dir: dir },
        ..GltfOptions::default()
    };
    let notes = export(Some(&mesh), &options).unwrap().notes;
    assert!(notes.contains(&GltfNote::ApproximatedWeights { kind: WeightKind::Sdef, count: 3 }));
    assert!(notes
        .iter()
        .any(|n| matches!(n, GltfNote::TextureSkipped { path, .. } if path == "missing.png")));
    // The example camera keeps one field of view, so no note about it.
    assert!(!notes.iter().any(|n| matches!(n, GltfNote::FixedFieldOfView { .. })));
}

#[test]
fn gltf_indices_widen_beyond_u16_and_triangles_turn_over() {
    for (vertices, component, size) in [(3, 5123, 2), (70_000, 5125, 4)] {
        let exported = export(Some(&mesh(vertices)), &GltfOptions::default()).unwrap();
        let (json, bin) = chunks(&exported.glb);
        let primitive = &json["meshes"][0]["primitives"][0];
        let accessor = &json["accessors"][primitive["indices"].as_u64().unwrap() as usize];
        assert_eq!(accessor["componentType"], component, "{vertices} vertices");
        let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
        let start = view["byteOffset"].as_u64().unwrap() as usize;
        let read = |i: usize| {
            let at = start + i * size;
            if size == 2 {
                u16::from_le_bytes(bin[at..at + 2].try_into().unwrap()) as u32
            } else {
                u32::from_le_bytes(bin[at..at + 4].try_into().unwrap())
            }
        };
        assert_eq!([read(0), read(1), read(2)], [0, 2, 1]);
    }
}

#[test]
fn gltf_names_that_did_not_decode_fall_back_to_their_index() {
    let mut model = example_model();
    model.bones[1].name = "\u{FFFD}\u{FFFD}".to_string();
    let input = GltfInput { model: &model, mesh: None, motion: None, camera: None };
    let exported = to_glb(&input, &GltfOptions::default()).unwrap();
    assert_eq!(exported.notes, [GltfNote::FallbackNames { what: "bone", count: 1 }]);
    let (json, _) = chunks(&exported.glb);
    assert_eq!(json["nodes"][1]["name"], "bone_1");
    assert!(json.get("animations").is_none(), "the rest pose has no animation");
}

#[test]
fn gltf_refuses_mismatched_meshes_and_oversized_animations() {
    let mut bad = mesh(3);
    bad.weights[0].bones[0] = 1_000;
    let err = export(Some(&bad), &GltfOptions::default()).unwrap_err();
    assert!(matches!(err, GltfError::MeshMismatch { bone: 1_000, .. }), "{err}");
    let tiny = GltfOptions { max_output_bytes: 100, ..GltfOptions::default() };
    assert!(matches!(export(None, &tiny), Err(GltfError::TooLarge(_))));
    let bad_scale = GltfOptions { scale: -1.0, ..GltfOptions::default() };
    assert!(matches!(export(None, &bad_scale), Err(GltfError::BadOption(_))));
}

#[test]
fn gltf_parent_cycles_are_cut_as_the_skeleton_cuts_them() {
    // Bones 0 → 1 → 2 → 0: the node tree must still be a tree under the root.
    let mut model = example_model();
    model.bones.truncate(3);
    model.bones[0].parent = Some(2);
    model.bones[1].parent = Some(0);
    model.bones[2].parent = Some(1);
    for b in &mut model.bones {
        b.ik = None;
        b.append = None;
    }
    let input = GltfInput { model: &model, mesh: None, motion: None, camera: None };
    let (json, _) = chunks(&to_glb(&input, &GltfOptions::default()).unwrap().glb);
    let nodes = json["nodes"].as_array().unwrap();
    let mut parents = vec![0; nodes.len()];
    for node in nodes {
        for child in node["children"].as_array().into_iter().flatten() {
            parents[child.as_u64().unwrap() as usize] += 1;
        }
    }
    // Every bone has exactly one parent node, the root none.
    assert_eq!(parents, [1, 1, 1, 0]);
}

#[test]
fn gltf_refuses_motions_too_long_for_32_bit_times_and_oversized_cameras() {
    let model = example_model();
    let mut far = example_motion();
    far.bones[0].frame = 5_000_000;
    let input = GltfInput { model: &model, mesh: None, motion: Some(&far), camera: None };
    let unlimited = GltfOptions { max_output_bytes: u64::MAX, ..GltfOptions::default() };
    assert!(matches!(to_glb(&input, &unlimited), Err(GltfError::TooLong { frames: 5_000_001 })));

    let mut camera = example_motion();
    camera.cameras[0].frame = 1_000_000;
    let input = GltfInput { model: &model, mesh: None, motion: None, camera: Some(&camera) };
    let small = GltfOptions { max_output_bytes: 1 << 20, ..GltfOptions::default() };
    let err = to_glb(&input, &small).unwrap_err();
    assert!(matches!(err, GltfError::CameraTooLarge { frames: 1_000_001, .. }), "{err}");
}
