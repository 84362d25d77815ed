use super::temporary::is_listed;
use super::*;
use std::fs;
use std::path::PathBuf;

use test_corpus::files::{listing as names, memory_device};

fn tmp_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.{}.tmp", std::process::id()))
}

#[test]
fn a_new_file_is_written_and_its_temporary_file_unlisted() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let tmp = tmp_of(dir.path(), "out.bin");
    write_atomic_with(&out, |w| {
        assert!(is_listed(&tmp), "the temporary file is listed while it is written");
        w.write_all(b"new")
    })
    .unwrap();
    assert_eq!(fs::read(&out).unwrap(), b"new");
    assert!(!is_listed(&tmp));
    assert_eq!(names(dir.path()), ["out.bin"]);
}

#[test]
fn a_failed_write_removes_its_temporary_file_and_keeps_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    fs::write(&out, b"old").unwrap();
    let err = write_atomic_with(&out, |w| {
        w.write_all(b"partial")?;
        Err(io::Error::other("the content could not be made"))
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "the content could not be made");
    assert_eq!(fs::read(&out).unwrap(), b"old");
    assert!(!is_listed(&tmp_of(dir.path(), "out.bin")));
    assert_eq!(names(dir.path()), ["out.bin"]);
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, PermissionsExt};
    use std::process::Command;

    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let (links, real) = (dir.path().join("links"), dir.path().join("real"));
        fs::create_dir(&links).unwrap();
        fs::create_dir(&real).unwrap();
        fs::write(real.join("target.bin"), b"old").unwrap();
        // Relative to the link's folder, not to the working directory.
        symlink("../real/target.bin", links.join("out.bin")).unwrap();
        write_atomic_with(&links.join("out.bin"), |w| {
            // Beside the target, so that the rename replaces the target itself.
            let tmp = tmp_of(&real, "target.bin");
            assert_eq!(names(&real), [tmp.file_name().unwrap().to_str().unwrap(), "target.bin"]);
            w.write_all(b"new")
        })
        .unwrap();
        let link = fs::symlink_metadata(links.join("out.bin")).unwrap();
        assert!(link.file_type().is_symlink());
        assert_eq!(fs::read(real.join("target.bin")).unwrap(), b"new");
        assert_eq!(names(&links), ["out.bin"]);
        assert_eq!(names(&real), ["target.bin"]);
    }

    #[test]
    fn a_dangling_symlink_chain_creates_the_file_at_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        symlink("sub/middle.bin", dir.path().join("out.bin")).unwrap();
        symlink("end.bin", sub.join("middle.bin")).unwrap();
        write_atomic(&dir.path().join("out.bin"), b"made").unwrap();
        assert_eq!(fs::read(sub.join("end.bin")).unwrap(), b"made");
        assert!(fs::symlink_metadata(dir.path().join("out.bin")).unwrap().is_symlink());
        assert!(fs::symlink_metadata(sub.join("middle.bin")).unwrap().is_symlink());
        assert_eq!(names(&sub), ["end.bin", "middle.bin"]);
    }

    #[test]
    fn a_symlink_cycle_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        symlink("b", dir.path().join("a")).unwrap();
        symlink("a", dir.path().join("b")).unwrap();
        let err = write_atomic(&dir.path().join("a"), b"x").unwrap_err();
        let message = err.to_string().to_lowercase();
        assert!(message.contains("too many levels of symbolic links"), "{err}");
        assert_eq!(names(dir.path()), ["a", "b"]);
    }

    #[test]
    fn a_folder_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        symlink("folder", dir.path().join("link")).unwrap();
        for path in [&folder, &dir.path().join("link")] {
            let err = write_atomic(path, b"x").unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
            assert_eq!(err.to_string(), format!("{} is a folder", folder.display()));
        }
        assert!(names(&folder).is_empty());
    }

    #[test]
    fn an_existing_file_keeps_its_mode_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("secret.bin");
        fs::write(&out, b"old").unwrap();
        for mode in [0o600, 0o640, 0o755] {
            fs::set_permissions(&out, fs::Permissions::from_mode(mode)).unwrap();
            write_atomic_with(&out, |w| {
                // Already private while the new content goes in.
                let tmp = fs::metadata(tmp_of(dir.path(), "secret.bin")).unwrap();
                assert_eq!(tmp.mode() & 0o7777, mode);
                w.write_all(b"new")
            })
            .unwrap();
            assert_eq!(fs::metadata(&out).unwrap().mode() & 0o7777, mode);
        }
        assert_eq!(fs::read(&out).unwrap(), b"new");
    }

    #[test]
    fn set_id_bits_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("tool.bin");
        fs::write(&out, b"old").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(0o6750)).unwrap();
        write_atomic(&out, b"new").unwrap();
        assert_eq!(fs::metadata(&out).unwrap().mode() & 0o7777, 0o750);
    }

    #[test]
    fn an_existing_file_keeps_its_owner_where_it_may() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("theirs.bin");
        fs::write(&out, b"old").unwrap();
        if std::os::unix::fs::chown(&out, Some(4242), Some(4343)).is_err() {
            return; // Not root: nobody else's file can be made here, so nothing to keep.
        }
        write_atomic(&out, b"new").unwrap();
        let meta = fs::metadata(&out).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (4242, 4343));
    }

    #[test]
    fn a_fifo_is_written_in_place_for_its_reader() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        symlink("pipe", dir.path().join("link")).unwrap();
        assert!(writes_in_place(&fifo) && writes_in_place(&dir.path().join("link")));
        assert!(!writes_in_place(&dir.path().join("missing")));

        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let (done, got) = std::sync::mpsc::channel();
        let reader_path = fifo.clone();
        std::thread::spawn(move || done.send(fs::read(reader_path).unwrap()).unwrap());
        write_atomic(&dir.path().join("link"), &bytes).unwrap();
        // A replaced FIFO would leave the reader blocked on the old one: fail, don't hang.
        let read = got.recv_timeout(std::time::Duration::from_secs(30)).expect("the reader ends");
        assert!(read == bytes, "the reader got {} of {} bytes", read.len(), bytes.len());
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names(dir.path()), ["link", "pipe"]);
    }

    /// `/dev/stdout` on a pipe is `/proc/self/fd/1`, a magic link whose text `pipe:[N]` names
    /// no path: followed by hand it would seem to dangle.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_pipe_through_a_proc_magic_link_is_written_in_place() {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        let (mut reader, writer) = io::pipe().unwrap();
        let path = PathBuf::from(format!("/proc/self/fd/{}", writer.as_raw_fd()));
        assert!(writes_in_place(&path));
        // Within the pipe's buffer, as nobody reads until the write is done.
        write_atomic(&path, b"through the pipe").unwrap();
        drop(writer);
        let mut read = String::new();
        reader.read_to_string(&mut read).unwrap();
        assert_eq!(read, "through the pipe");
    }

    /// A magic link to a deleted file reads `/tmp/x (deleted)`: no folder to rename in.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_deleted_file_through_a_proc_magic_link_is_written_in_place() {
        use std::io::{Read, Seek};
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let mut file = fs::File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(dir.path().join("gone.bin"))
            .unwrap();
        file.write_all(b"a longer old content").unwrap();
        fs::remove_file(dir.path().join("gone.bin")).unwrap();
        write_atomic(Path::new(&format!("/proc/self/fd/{}", file.as_raw_fd())), b"new").unwrap();
        let mut read = Vec::new();
        file.rewind().unwrap();
        file.read_to_end(&mut read).unwrap();
        assert_eq!(read, b"new", "truncated, as `>` would");
        assert!(names(dir.path()).is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_are_written_in_place_and_a_full_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (Some(null), Some(full)) =
            (memory_device(dir.path(), "null", 3), memory_device(dir.path(), "full", 7))
        else {
            eprintln!("skipped: mknod is not allowed here");
            return;
        };
        let bytes = vec![7u8; 100_000];
        write_atomic(&null, &bytes).unwrap();
        // Smaller than the writer's buffer: only the final flush meets the error.
        let err = write_atomic(&full, b"tiny").unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "ENOSPC, got {err}");
        let err = write_atomic(&full, &bytes).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "ENOSPC, got {err}");
        for device in [&null, &full] {
            assert!(fs::symlink_metadata(device).unwrap().file_type().is_char_device());
        }
        assert_eq!(names(dir.path()), ["full", "null"]);
    }
}
