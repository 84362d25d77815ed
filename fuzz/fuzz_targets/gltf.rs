//! Reads arbitrary bytes as a model and its mesh (PMX or PMD) and exports them as glTF, at rest
//! and with the built-in example motion as motion and camera: refusing is fine, panicking or
//! writing a GLB whose chunk lengths disagree with its size is not.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::gltf::{to_glb, GltfInput, GltfOptions};
use vmdkit::model::{Mesh, Model};

/// Bigger models only cost time: the readers' bounds are what the fuzzer is after.
const MAX_BONES: usize = 2_000;

fuzz_target!(|data: &[u8]| {
    let mesh = match Mesh::parse(data) {
        Ok(mesh) => Some(mesh),
        Err(err) => {
            assert!(err.offset <= data.len() as u64 || data.is_empty(), "{err}");
            None
        }
    };
    let Ok(model) = Model::parse(data) else { return };
    if model.bones.len() > MAX_BONES {
        return;
    }
    let motion = vmdkit::example::example_motion();
    for motion in [None, Some(&motion)] {
        let input = GltfInput { model: &model, mesh: mesh.as_ref(), motion, camera: motion };
        if let Ok(export) = to_glb(&input, &GltfOptions::default()) {
            let glb = export.glb;
            assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
        }
    }
});
