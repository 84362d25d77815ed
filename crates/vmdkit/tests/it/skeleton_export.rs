//! World-space bakes: the NPZ read back by a small zip/npy reader here and, when numpy is
//! importable, by NumPy itself; CSV and JSON parsed back; units and axes conversions.

use crate::common::skeleton as skeleton_common;

use skeleton_common::*;
use std::collections::HashMap;
use std::process::Command;
use vmdkit::bake::{bake_world, BakeSettings, WorldBake};
use vmdkit::eval::MotionSampler;
use vmdkit::skeleton::{Axes, METRES_PER_UNIT};
use vmdkit::skeleton::{Binding, Skeleton};

fn bake(settings: BakeSettings) -> Option<WorldBake> {
    let manifest = test_corpus::corpus_or_skip("skeleton_export")?;
    let model = model(&manifest.dir.join(MIKU));
    let motion = motion(&manifest.dir.join(MIKU_TEST));
    let skeleton = Skeleton::new(&model);
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut calls = 0;
    let bake = bake_world(&skeleton, &sampler, &binding, &settings, |done, total| {
        calls += 1;
        assert!(done <= total);
    })
    .unwrap();
    assert!(calls >= 1);
    Some(bake)
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// CRC-32 (IEEE), bit by bit: independent of the writer's table.
fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &byte in data {
        c ^= u32::from(byte);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// A stored zip, read through its central directory: member name → bytes.
fn unzip(zip: &[u8]) -> HashMap<String, Vec<u8>> {
    let end = zip.len() - 22;
    assert_eq!(u32_at(zip, end), 0x0605_4b50, "end of central directory");
    let (count, cd_size, cd_at) =
        (u16_at(zip, end + 10), u32_at(zip, end + 12), u32_at(zip, end + 16));
    assert_eq!(cd_at + cd_size, end);
    let mut members = HashMap::new();
    let mut at = cd_at;
    for _ in 0..count {
        assert_eq!(u32_at(zip, at), 0x0201_4b50);
        assert_eq!(u16_at(zip, at + 10), 0, "stored, not compressed");
        let (crc, size, name_len, local) = (
            u32_at(zip, at + 16),
            u32_at(zip, at + 24),
            u16_at(zip, at + 28),
            u32_at(zip, at + 42),
        );
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        assert_eq!(u32_at(zip, local), 0x0403_4b50);
        let data_at = local + 30 + u16_at(zip, local + 26) + u16_at(zip, local + 28);
        let data = zip[data_at..data_at + size].to_vec();
        assert_eq!(crc32(&data) as usize, crc, "{name}: CRC");
        members.insert(name, data);
        at += 46 + name_len;
    }
    members
}

/// An .npy member: (descr, shape, data).
fn npy(bytes: &[u8]) -> (String, Vec<usize>, &[u8]) {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16_at(bytes, 8);
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.ends_with('\n') && header.contains("'fortran_order': False"));
    let descr = header.split("'descr': '").nth(1).unwrap().split('\'').next().unwrap().to_string();
    let shape = header.split("'shape': (").nth(1).unwrap().split(')').next().unwrap();
    let shape = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    (descr, shape, &bytes[10 + len..])
}

fn f32s(data: &[u8]) -> Vec<f32> {
    data.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn skeleton_export_npz_structure() {
    let Some(bake) = bake(BakeSettings { fps: 60.0, ..BakeSettings::default() }) else {
        return;
    };
    let mut zip = std::io::Cursor::new(Vec::new());
    bake.write_npz(&mut zip).unwrap();
    let members = unzip(zip.get_ref());
    let (f, b) = (bake.frame_count(), bake.bone_count());
    assert_eq!(f, 2 * 24 + 1, "test.vmd ends at frame 24: 49 samples at 60 fps");
    let (descr, shape, data) = npy(&members["positions.npy"]);
    assert_eq!((descr.as_str(), shape), ("<f4", vec![f, b, 3]));
    assert_eq!(f32s(data), bake.positions);
    let (descr, shape, data) = npy(&members["rotations.npy"]);
    assert_eq!((descr.as_str(), shape), ("<f4", vec![f, b, 4]));
    assert_eq!(f32s(data), bake.rotations);
    let (descr, shape, data) = npy(&members["parents.npy"]);
    assert_eq!((descr.as_str(), shape), ("<i4", vec![b]));
    let parents: Vec<i32> =
        data.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(parents, bake.parents);
    let (descr, shape, data) = npy(&members["names.npy"]);
    assert_eq!(shape, vec![b]);
    let width: usize = descr.trim_start_matches("<U").parse().unwrap();
    let names: Vec<String> = data
        .chunks(4 * width)
        .map(|c| {
            c.chunks(4)
                .map(|u| u32::from_le_bytes(u.try_into().unwrap()))
                .filter(|&u| u != 0)
                .filter_map(char::from_u32)
                .collect()
        })
        .collect();
    assert_eq!(names, bake.names);
    let (descr, shape, data) = npy(&members["fps.npy"]);
    assert_eq!((descr.as_str(), shape.len()), ("<f8", 0));
    assert_eq!(f64::from_le_bytes(data.try_into().unwrap()), 60.0);
    let (_, shape, _) = npy(&members["frames.npy"]);
    assert_eq!(shape, vec![f]);
    assert!(
        members.contains_key("units.npy")
            && members.contains_key("axes.npy")
            && members.contains_key("scale.npy")
    );
}

fn numpy_available() -> bool {
    Command::new("python3").args(["-c", "import numpy"]).output().is_ok_and(|o| o.status.success())
}

#[test]
fn skeleton_export_npz_loads_in_numpy() {
    if !numpy_available() {
        eprintln!(
            "SKIPPED skeleton_export_npz_loads_in_numpy: python3 with numpy is not available"
        );
        return;
    }
    let Some(bake) = bake(BakeSettings {
        fps: 30.0,
        scale: METRES_PER_UNIT,
        axes: Axes::RightHandedZUp,
        ..BakeSettings::default()
    }) else {
        return;
    };
    let path =
        std::env::temp_dir().join(format!("vmdkit_skeleton_export_{}.npz", std::process::id()));
    vmdkit::io::write_atomic_with(&path, |w| bake.write_npz(w)).unwrap();
    let script = r#"
import sys, numpy as np
d = np.load(sys.argv[1])
p, r, n, par = d["positions"], d["rotations"], d["names"], d["parents"]
assert p.dtype == np.float32 and r.dtype == np.float32 and par.dtype == np.int32, (p.dtype, r.dtype, par.dtype)
assert p.shape[2] == 3 and r.shape[2] == 4 and p.shape[:2] == r.shape[:2] == (d["frames"].shape[0], n.shape[0])
assert np.allclose(np.linalg.norm(r, axis=2), 1, atol=1e-5)
assert float(d["fps"]) == 30.0 and str(d["units"]) == "metres" and str(d["axes"]) == "right_handed_z_up"
c = list(n).index("センター")
print(p.shape[0], p.shape[1], repr(float(p[0, c, 0])), repr(float(p[0, c, 1])), repr(float(p[0, c, 2])), n[c], int(par[c]))
"#;
    let out = Command::new("python3").arg("-c").arg(script).arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "numpy: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields[0].parse::<usize>().unwrap(), bake.frame_count());
    assert_eq!(fields[1].parse::<usize>().unwrap(), bake.bone_count());
    let c = bake.names.iter().position(|n| n == "センター").unwrap();
    for axis in 0..3 {
        assert_eq!(fields[2 + axis].parse::<f32>().unwrap(), bake.positions[c * 3 + axis]);
    }
    assert_eq!((fields[5], fields[6].parse::<i32>().unwrap()), ("センター", bake.parents[c]));
    // センター rests 8 units up: 0.64 m, on Blender's Z axis.
    assert!((bake.positions[c * 3 + 2] - 0.64).abs() < 1e-6);
    println!("numpy read {} × {} bones", fields[0], fields[1]);
}

#[test]
fn skeleton_export_csv_and_json_read_back() {
    let Some(bake) = bake(BakeSettings::default()) else {
        return;
    };
    let mut csv_bytes = Vec::new();
    bake.write_csv(&mut csv_bytes).unwrap();
    let mut reader = csv::Reader::from_reader(csv_bytes.as_slice());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "sample", "frame", "time", "bone", "name", "parent", "x", "y", "z", "qx", "qy", "qz",
            "qw"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), bake.frame_count() * bake.bone_count());
    let last = rows.last().unwrap();
    let i = rows.len() - 1;
    assert_eq!(last[4].to_string(), bake.names[bake.bone_count() - 1]);
    assert_eq!(last[8].parse::<f32>().unwrap(), bake.positions[i * 3 + 2]);
    assert_eq!(last[12].parse::<f32>().unwrap(), bake.rotations[i * 4 + 3]);

    let mut json = Vec::new();
    bake.write_json(&mut json).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(doc["fps"], 30.0);
    assert_eq!(doc["axes"], "mmd_left_handed_y_up");
    assert_eq!(doc["bones"].as_array().unwrap().len(), bake.bone_count());
    assert_eq!(doc["bones"][1]["parent"], bake.parents[1]);
    let p = &doc["positions"][3][5];
    assert_eq!(p[1].as_f64().unwrap() as f32, bake.positions[(3 * bake.bone_count() + 5) * 3 + 1]);
    assert_eq!(doc["rotations"][3][5].as_array().unwrap().len(), 4);
}

#[test]
fn skeleton_export_units_and_axes() {
    let Some(mmd) = bake(BakeSettings::default()) else {
        return;
    };
    let Some(rh) = bake(BakeSettings {
        scale: METRES_PER_UNIT,
        axes: Axes::RightHandedYUp,
        ..BakeSettings::default()
    }) else {
        return;
    };
    for (a, b) in mmd.positions.chunks(3).zip(rh.positions.chunks(3)) {
        let want = [a[0] * 0.08, a[1] * 0.08, -a[2] * 0.08];
        assert!((0..3).all(|i| (b[i] - want[i]).abs() < 1e-6), "{a:?} → {b:?}");
    }
    for (a, b) in mmd.rotations.chunks(4).zip(rh.rotations.chunks(4)) {
        assert_eq!([-a[0] + 0.0, -a[1] + 0.0, a[2], a[3]], [b[0], b[1], b[2], b[3]]);
    }
    assert_eq!(rh.units(), "metres");
}
