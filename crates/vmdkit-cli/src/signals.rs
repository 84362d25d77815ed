//! SIGINT and SIGTERM: the temporary files of the outputs being written are removed before
//! the process exits with the conventional 128 + signal status (130, 143). Without this, the
//! default action kills the process mid-write and leaves a hidden `.NAME.PID.tmp` beside the
//! output, multi-GB for a large bake. Existing outputs are untouched either way.

/// Starts the thread that waits for the signals. The cleanup runs there, not in the signal
/// handler, because it takes the library's lock and deletes files.
#[cfg(unix)]
pub fn remove_temporary_files_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(err) => {
            // The command still works; only an interrupted one leaves its temporary file.
            say!("warning: cannot handle SIGINT and SIGTERM: {err}");
            return;
        }
    };
    let spawned = std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(signal) = signals.forever().next() {
            vmdkit::io::remove_temporary_files();
            std::process::exit(128 + signal);
        }
    });
    if let Err(err) = spawned {
        say!("warning: cannot handle SIGINT and SIGTERM: {err}");
    }
}

/// Elsewhere the default handling stays: an interrupted write may leave its temporary file.
#[cfg(not(unix))]
pub fn remove_temporary_files_on_signals() {}
