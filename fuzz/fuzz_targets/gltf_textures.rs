//! Reads arbitrary bytes as a model and its mesh and exports them as glTF with their textures
//! embedded and referenced, from a model folder laid out once per process: textures inside it,
//! a link that stays inside, a link that leaves, a named pipe, and beside the folder a "secret"
//! PNG whose bytes must never reach an output. The texture names the fuzzer writes into the
//! model are the untrusted paths: whatever they say (`..`, absolute paths, `\`, links), the
//! export must not panic, hang on the pipe, or embed a byte of the secret.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use vmdkit::gltf::{to_glb, GltfInput, GltfOptions, Textures};
use vmdkit::model::{Mesh, Model};

/// Bigger models only cost time: the texture handling is what the fuzzer is after.
const MAX_BONES: usize = 2_000;

/// A PNG signature, then bytes no texture inside the folder holds.
const SECRET: &[u8] = b"\x89PNG\r\n\x1a\nSECRET-outside-the-model-folder-7c1f";

/// The model folder (`<tmp>/model`), made on first use; the secret lies in `<tmp>`.
fn model_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("vmdkit-fuzz-textures-{}", std::process::id()));
        let dir = root.join("model");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(root.join("secret.png"), SECRET).unwrap();
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0inside";
        for name in ["tex.png", "sph.png", "toon.png"] {
            std::fs::write(dir.join(name), png).unwrap();
        }
        std::fs::write(dir.join("sub/tex.jpg"), b"\xFF\xD8\xFF\xE0inside").unwrap();
        let _ = std::os::unix::fs::symlink("tex.png", dir.join("inside-link.png"));
        let _ = std::os::unix::fs::symlink("../secret.png", dir.join("link.png"));
        let _ = std::process::Command::new("mkfifo").arg(dir.join("pipe.png")).status();
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(model) = Model::parse(data) else { return };
    if model.bones.len() > MAX_BONES {
        return;
    }
    let mesh = Mesh::parse(data).ok();
    let dir = model_dir();
    let modes = [
        Textures::Embed { model_dir: dir.clone() },
        Textures::Reference { model_dir: dir.clone(), output_dir: dir.join("out") },
    ];
    for textures in modes {
        let input = GltfInput { model: &model, mesh: mesh.as_ref(), motion: None, camera: None };
        let options = GltfOptions { textures, ..GltfOptions::default() };
        if let Ok(export) = to_glb(&input, &options) {
            let glb = export.glb;
            assert_eq!(u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize, glb.len());
            let leaked = glb.windows(SECRET.len() - 8).any(|w| w == &SECRET[8..]);
            assert!(!leaked, "the secret outside the model's folder was embedded");
        }
    }
});
