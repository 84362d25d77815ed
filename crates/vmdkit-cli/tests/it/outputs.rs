//! What an output path names: symlinks written through, an existing file's mode kept, FIFOs
//! and devices written in place (a full one failing the command), and SIGINT or SIGTERM
//! removing the temporary file of an output in progress.
//!
//! Devices are copies made with mknod in a temporary folder, never the real ones in /dev: as
//! root, a wrong build would replace those for the whole machine.
#![cfg(unix)]

use crate::common;

use common::{assert_no_panic, listing, vmdkit};
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The example motion as `vmdkit example` writes it in `format`, from stdout.
fn example_as(format: &str) -> Vec<u8> {
    let output = vmdkit().args(["example", "--to", format, "-"]).output().unwrap();
    assert!(output.status.success());
    output.stdout
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Reads the FIFO at `path` to its end on another thread.
fn read_in_background(path: &Path) -> mpsc::Receiver<Vec<u8>> {
    let (done, received) = mpsc::channel();
    let path = path.to_path_buf();
    std::thread::spawn(move || done.send(std::fs::read(path).unwrap()).unwrap());
    received
}

/// What the reader got. A FIFO replaced by a file leaves its reader waiting on the old one:
/// fail then, rather than hang.
fn read_by(reader: mpsc::Receiver<Vec<u8>>) -> Vec<u8> {
    reader.recv_timeout(Duration::from_secs(30)).expect("the FIFO's reader never got to the end")
}

/// A bones-only model (PmxEditor's bone CSV) with the example's 右腕, for `bake --model`.
fn arm_model(dir: &Path) -> PathBuf {
    let path = dir.join("model.csv");
    let row =
        "Bone,右腕,,0,0,0,0,0,1,0,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578";
    std::fs::write(&path, format!(";Bone,x\r\n{row}\r\n")).unwrap();
    path
}

#[test]
fn a_symlinked_output_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let (links, real) = (dir.path().join("links"), dir.path().join("real"));
    std::fs::create_dir(&links).unwrap();
    std::fs::create_dir(&real).unwrap();
    std::fs::write(real.join("existing.json"), "old").unwrap();
    symlink("../real/existing.json", links.join("existing.json")).unwrap();
    symlink("../real/new.json", links.join("dangling.json")).unwrap();

    for name in ["existing.json", "dangling.json"] {
        let output = vmdkit().current_dir(&links).args(["example", name]).output().unwrap();
        assert_no_panic(&output);
        assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        let link = std::fs::symlink_metadata(links.join(name)).unwrap();
        assert!(link.file_type().is_symlink(), "{name} is still a link");
    }
    for target in ["existing.json", "new.json"] {
        assert_eq!(std::fs::read(real.join(target)).unwrap(), example_as("json"), "{target}");
    }
    assert_eq!(listing(&links), ["dangling.json", "existing.json"]);
    assert_eq!(listing(&real), ["existing.json", "new.json"]);
}

#[test]
fn an_existing_output_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("private.json");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    vmdkit().current_dir(dir.path()).args(["example", "private.json"]).assert().success();
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o600);
    assert_eq!(std::fs::read(&out).unwrap(), example_as("json"));
}

#[test]
fn a_fifo_output_reaches_its_reader_and_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    vmdkit().current_dir(d).args(["example", "example.vmd"]).assert().success();
    arm_model(d);
    // A streamed output, and an NPZ, whose zip writer seeks back and so goes through memory.
    vmdkit()
        .current_dir(d)
        .args(["bake", "example.vmd", "--model", "model.csv", "--fps", "30", "-o", "file.npz"])
        .assert()
        .success();
    let npz = std::fs::read(d.join("file.npz")).unwrap();
    let cases: [(&str, &[&str], Vec<u8>); 2] = [
        ("pipe.json", &["example", "pipe.json"], example_as("json")),
        (
            "pipe.npz",
            &["bake", "example.vmd", "--model", "model.csv", "--fps", "30", "-o", "pipe.npz"],
            npz,
        ),
    ];
    for (name, args, expected) in cases {
        let fifo = d.join(name);
        mkfifo(&fifo);
        let reader = read_in_background(&fifo);
        let output =
            vmdkit().current_dir(d).args(args).timeout(Duration::from_secs(60)).output().unwrap();
        assert_no_panic(&output);
        assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        let got = read_by(reader);
        assert!(
            got == expected,
            "{name}: the reader got {} of {} bytes",
            got.len(),
            expected.len()
        );
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "{name}");
    }
    assert_eq!(
        listing(d),
        ["example.vmd", "file.npz", "model.csv", "pipe.json", "pipe.npz"],
        "no temporary file left"
    );
}

/// `/dev/stdout` is a link to this magic link, whose text (`pipe:[N]`) names no path. Tested
/// through /proc rather than /dev/stdout itself, which a wrong build, as root, would replace.
#[cfg(target_os = "linux")]
#[test]
fn stdout_through_proc_is_written_in_place() {
    let output = vmdkit().args(["example", "--to", "json", "/proc/self/fd/1"]).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.stdout, example_as("json"));
}

#[cfg(target_os = "linux")]
use test_corpus::files::memory_device;

#[cfg(target_os = "linux")]
#[test]
fn devices_are_written_in_place_and_a_full_one_fails_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Named .npz, which `bake --model` needs; `example` is told its format.
    let (Some(null), Some(full)) =
        (memory_device(d, "null.npz", 3), memory_device(d, "full.npz", 7))
    else {
        eprintln!("skipped: mknod is not allowed here");
        return;
    };
    vmdkit().current_dir(d).args(["example", "example.vmd"]).assert().success();
    arm_model(d);
    let bake_npz = |out: &str| {
        let args = ["bake", "example.vmd", "--model", "model.csv", "--fps", "30", "-o", out];
        args.map(str::to_string).to_vec()
    };
    let to = |out: &str| ["example", "--to", "json", out].map(str::to_string).to_vec();

    for args in [to("null.npz"), bake_npz("null.npz")] {
        let output = vmdkit().current_dir(d).args(&args).output().unwrap();
        assert_no_panic(&output);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
    for args in [to("full.npz"), bake_npz("full.npz")] {
        let output = vmdkit().current_dir(d).args(&args).output().unwrap();
        assert_no_panic(&output);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write full.npz: No space left on device"),
            "{stderr}"
        );
        // Issue 24: the zip writer's drop printed its debug text before the real error.
        assert!(!stderr.contains("ZipWriter drop failed"), "{stderr}");
    }
    for device in [&null, &full] {
        let kind = std::fs::symlink_metadata(device).unwrap().file_type();
        assert!(kind.is_char_device(), "{} is still a device", device.display());
    }
    assert_eq!(listing(d), ["example.vmd", "full.npz", "model.csv", "null.npz"]);
}

/// A child process that a failed assertion must not leave writing into a removed folder.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The example baked at 100 000 keys a second: a 120 MB JSON whose writing takes seconds, so
/// that the signal comes while its temporary file is being written.
#[test]
fn sigint_and_sigterm_remove_the_temporary_file_and_exit_128_plus_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    vmdkit().current_dir(d).args(["example", "example.vmd"]).assert().success();
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        let mut child = Running(
            Command::new(env!("CARGO_BIN_EXE_vmdkit"))
                .current_dir(d)
                .args(["bake", "example.vmd", "--fps", "100000", "-o", "big.json"])
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let start = Instant::now();
        while !listing(d)
            .iter()
            .any(|name| name.starts_with(".big.json.") && name.ends_with(".tmp"))
        {
            if let Some(status) = child.0.try_wait().unwrap() {
                panic!("the bake ended ({status}) before its temporary file was seen");
            }
            assert!(start.elapsed() < Duration::from_secs(120), "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(2));
        }
        let pid = child.0.id().to_string();
        assert!(Command::new("kill").args(["-s", signal, &pid]).status().unwrap().success());
        let exit = child.0.wait().unwrap();
        assert_eq!(exit.code(), Some(status), "SIG{signal}: {exit}");
        assert_eq!(listing(d), ["example.vmd"], "SIG{signal} left files behind");
    }
}

/// Issue 24: `view in.vmd --model m.pmx -o m.pmx`, `plot in.vmd -o in.vmd` and the like
/// replaced an input with their output. Every command that writes now refuses (usage, exit 2)
/// an output that is the same file as any of its inputs, however it is named: the same path,
/// a hard link under the output's extension, or a symlink; the input is left as it was.
#[test]
fn no_command_writes_over_one_of_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let motion = d.join("in.vmd");
    std::fs::write(&motion, example_as("vmd")).unwrap();
    std::fs::write(d.join("other.vmd"), example_as("vmd")).unwrap();
    arm_model(d);
    std::fs::write(d.join("map.csv"), "bone,右腕,RightArm\r\n").unwrap();
    let keypoints = d.join("kp.json");
    let made = vmdkit()
        .current_dir(d)
        .args(["keypoints", "in.vmd", "--layout", "h36m", "-o"])
        .arg(&keypoints)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let pose = ["convert", "in.vmd", "pose.vpd", "--frame", "0"];
    assert!(vmdkit().current_dir(d).args(pose).output().unwrap().status.success());
    // Other names of the inputs, with the extensions the commands write.
    for (input, link) in [
        ("in.vmd", "in.html"),
        ("in.vmd", "in.png"),
        ("in.vmd", "in.json"),
        ("other.vmd", "other.csv"),
        ("model.csv", "model.html"),
        ("model.csv", "model.vmd"),
        ("model.csv", "model.glb"),
        ("model.csv", "model.bvh"),
        ("model.csv", "model.npz"),
        ("kp.json", "kp.vmd"),
        ("pose.vpd", "pose.vmd"),
        ("pose.vpd", "pose.html"),
    ] {
        std::fs::hard_link(d.join(input), d.join(link)).unwrap();
    }
    symlink("in.vmd", d.join("link.vmd")).unwrap();
    let before: Vec<(PathBuf, Vec<u8>)> =
        ["in.vmd", "other.vmd", "model.csv", "map.csv", "kp.json", "pose.vpd"]
            .iter()
            .map(|f| (d.join(f), std::fs::read(d.join(f)).unwrap()))
            .collect();
    let cases: &[&[&str]] = &[
        &["view", "in.vmd", "-o", "in.html"],
        &["view", "in.vmd", "--model", "model.csv", "-o", "model.html"],
        &["view", "in.vmd", "--camera", "other.vmd", "-o", "in.html"],
        &["plot", "in.vmd", "--bone", "右腕", "-o", "in.png"],
        &["render", "in.vmd", "--frame", "0", "-o", "in.png"],
        &["convert", "in.vmd", "in.vmd"],
        &["convert", "in.vmd", "-o", "link.vmd"],
        &["convert", "in.vmd", "-o", "in.json"],
        &["convert", "in.vmd", "-o", "model.glb", "--model", "model.csv", "--skeleton-only"],
        &["convert", "in.vmd", "-o", "model.bvh", "--model", "model.csv"],
        &["mirror", "in.vmd", "in.vmd"],
        &["mirror", "in.vmd", "-o", "link.vmd"],
        &["merge", "in.vmd", "other.vmd", "-o", "other.csv"],
        &["append", "in.vmd", "other.vmd", "-o", "other.vmd"],
        &["rename", "in.vmd", "-o", "map.csv", "--map", "map.csv"],
        &["bake", "in.vmd", "--fps", "30", "-o", "in.vmd"],
        &["bake", "in.vmd", "--model", "model.csv", "-o", "model.vmd"],
        &["bake", "in.vmd", "--model", "model.csv", "--fps", "30", "-o", "model.npz"],
        &["keypoints", "in.vmd", "--layout", "h36m", "-o", "in.json"],
        &["retarget", "kp.json", "-o", "kp.vmd"],
        &["convert", "pose.vpd", "-o", "pose.vmd"],
        &["view", "pose.vpd", "-o", "pose.html"],
    ];
    for args in cases {
        let output = vmdkit().current_dir(d).args(*args).output().unwrap();
        assert_no_panic(&output);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("refusing to write") && stderr.contains("is the input"),
            "{stderr}"
        );
        for (path, bytes) in &before {
            assert!(std::fs::read(path).unwrap() == *bytes, "{args:?} changed {path:?}");
        }
    }
    assert!(std::fs::symlink_metadata(d.join("link.vmd")).unwrap().file_type().is_symlink());
}
