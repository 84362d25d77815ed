//! Every PMX and PMD mesh in the shared corpus reads (except the one fixture whose skeleton
//! does not either), agrees with the section counts the skeleton reader walked, and holds only
//! references in range; prefixes of the smaller files give `Ok` or a typed error, never a
//! panic.

use test_corpus::corpus_or_skip;
use vmdkit::model::{Mesh, Model};

const MALFORMED: &str = "joint_orient_test.pmx";

#[test]
fn corpus_meshes_read_and_match_the_section_counts() {
    let Some(manifest) = corpus_or_skip("corpus_meshes_read") else { return };
    let mut read = 0;
    for entry in manifest.of_kind("pmx").chain(manifest.of_kind("pmd")) {
        let path = &entry.local_path;
        let bytes = entry.bytes();
        if path.ends_with(MALFORMED) {
            assert!(Mesh::parse(&bytes).is_err(), "{path}");
            continue;
        }
        let model = Model::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mesh = Mesh::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let counts = model.counts;
        assert_eq!(mesh.positions.len(), counts.vertices, "{path}");
        assert_eq!(mesh.normals.len(), counts.vertices, "{path}");
        assert_eq!(mesh.weights.len(), counts.vertices, "{path}");
        assert_eq!(mesh.indices.len(), counts.face_indices, "{path}");
        assert_eq!(mesh.materials.len(), counts.materials, "{path}");
        let bones = model.bones.len() as u32;
        for w in &mesh.weights {
            for (b, weight) in w.bones.iter().zip(w.weights) {
                assert!(weight == 0.0 || *b < bones, "{path}: bone {b}");
            }
        }
        let drawn: usize = mesh.materials.iter().map(|m| m.index_count).sum();
        assert!(drawn <= mesh.indices.len(), "{path}");
        for m in &mesh.materials {
            assert!(m.texture.is_none_or(|t| t < mesh.textures.len()), "{path}");
        }
        for morph in &mesh.vertex_morphs {
            assert!(morph.offsets.iter().all(|&(v, _)| (v as usize) < counts.vertices), "{path}");
        }
        if bytes.len() < 64 * 1024 {
            for len in 0..bytes.len() {
                if let Err(e) = Mesh::parse(&bytes[..len]) {
                    assert!(e.offset <= len as u64, "{path} cut at {len}: {e}");
                }
            }
        }
        read += 1;
    }
    assert!(read >= 10, "{read} meshes");
}
