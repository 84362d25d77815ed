//! Meshes of both formats: vertices, weights, faces, materials and vertex morphs, and their
//! damage.

use super::pmd::{find, pmd_fixture};
use super::*;

#[test]
fn pmx_meshes_read_vertices_weights_faces_materials_and_vertex_morphs() {
    for version in [2.0, 2.1] {
        for sizes in SIZES {
            let mesh = super::Mesh::parse(&pmx_fixture(version, sizes[0] == 1, sizes)).unwrap();
            let kinds: Vec<_> = mesh.weights.iter().map(|w| w.kind).collect();
            let mut expected = vec![super::WeightKind::Bdef1, super::WeightKind::Sdef];
            if version > 2.0 {
                expected.push(super::WeightKind::Qdef);
                // QDEF's bone −1 holds no weight.
                assert_eq!(mesh.weights[2].weights, [0.25, 0.25, 0.25, 0.0]);
            }
            assert_eq!(kinds, expected);
            assert_eq!(mesh.weights[1].bones[..2], [0, 1]);
            assert_eq!(mesh.weights[1].weights[..2], [0.5, 0.5]);
            assert_eq!(mesh.indices, [0, 1, 1]);
            assert_eq!(mesh.textures, ["tex.png"]);
            // The second material asks for faces beyond the list: it draws what is left, none.
            let counts: Vec<_> = mesh.materials.iter().map(|m| m.index_count).collect();
            assert_eq!(counts, [3, 0]);
            assert_eq!(mesh.materials[0].texture, Some(0));
            assert_eq!(mesh.vertex_morphs.len(), 1);
            assert_eq!(mesh.vertex_morphs[0].offsets, [(1, glam::Vec3::ZERO)]);
            // Both group morphs have the vertex morph as a member.
            let groups: Vec<_> = mesh.group_morphs.iter().map(|g| g.name.as_str()).collect();
            assert_eq!(groups, ["group", "vgroup"]);
            assert_eq!(mesh.group_morphs[0].members, [(0, 1.0)]);
        }
    }
}

#[test]
fn pmd_meshes_read_skins_as_vertex_morphs() {
    // The fixture's second skin, あ, is stored with the base's type; make it an eyebrow skin.
    let mut data = pmd_fixture();
    let at = find(&data, &[0x82, 0xA0, 0, 0]) + 20 + 4;
    data[at] = 1;
    let mesh = super::Mesh::parse(&data).unwrap();
    assert_eq!(mesh.positions.len(), 1);
    assert_eq!(mesh.weights[0].kind, super::WeightKind::Bdef2);
    assert_eq!(mesh.indices, [0, 0, 0]);
    assert_eq!(mesh.materials.len(), 1);
    assert_eq!(mesh.vertex_morphs.len(), 1);
    assert_eq!(mesh.vertex_morphs[0].name, "あ");
    assert_eq!(mesh.vertex_morphs[0].offsets, [(0, glam::Vec3::ZERO)]);
}

#[test]
fn mesh_prefixes_and_byte_flips_give_typed_errors() {
    for data in [pmx_fixture(2.1, false, [1; 6]), pmx_fixture(2.0, true, [4; 6]), pmd_fixture()] {
        for len in 0..data.len() {
            if let Err(e) = super::Mesh::parse(&data[..len]) {
                assert!(e.offset <= len as u64, "{len}: {e}");
            }
        }
        let mut damaged = data.clone();
        for i in 0..data.len() {
            for flip in [0x01, 0x80, 0xFF] {
                damaged[i] ^= flip;
                let _ = super::Mesh::parse(&damaged);
                damaged[i] = data[i];
            }
        }
    }
    let csv =
        "Bone,a,,0,0,0,0,0,1,1,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578\n";
    let err = super::Mesh::parse(csv.as_bytes()).unwrap_err();
    assert!(matches!(err.kind, ModelErrorKind::NotAModel { .. }), "{err}");
}

#[test]
fn mesh_bones_out_of_range_name_the_vertex() {
    // Vertex 1 (SDEF) weights bones 0 and 1; a model with one bone has no bone 1. Renumber the
    // fixture's bone count from 6 to 1 and cut the file after the first bone.
    let data = pmx_fixture(2.0, true, [1; 6]);
    let mut mesh = super::Mesh::parse(&data).unwrap();
    mesh.weights[1].bones[1] = 9;
    let (vertex, kind) = mesh.check_bones(6).unwrap_err();
    assert_eq!(vertex, 1);
    assert!(matches!(kind, ModelErrorKind::BadIndex { what: "vertex bone", index: 9, count: 6 }));
}
