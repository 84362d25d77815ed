//! Exit statuses and how errors are reported.
//!
//! 0: success. 1: a file is damaged or unreadable, or an output could not be written.
//! 2: bad usage (clap's own status for argument errors, and ours for combinations it cannot
//! check, such as `-` without `--from`). 130 and 143: stopped by SIGINT or SIGTERM (see
//! [`crate::signals`]).

use std::process::ExitCode;

/// What a command found, when it ran to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// At least one file was damaged or unreadable; the reasons were already printed.
    Failed,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> ExitCode {
        match outcome {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::Failed => ExitCode::from(1),
        }
    }
}

/// An argument combination clap cannot reject by itself.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A usage error as an `anyhow::Error`, for `?` and `bail!`-style returns.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// Prints `err` and gives its exit status.
pub fn report(err: &anyhow::Error) -> ExitCode {
    // A reader that went away (`vmdkit dump big.vmd | head`) is not a failure of ours.
    if err.chain().any(is_broken_pipe) {
        return ExitCode::SUCCESS;
    }
    if let Some(usage) = err.downcast_ref::<UsageError>() {
        say!("error: {usage}\n\nFor more information, try '--help'.");
        return ExitCode::from(2);
    }
    say!("error: {err:#}");
    ExitCode::from(1)
}

/// Whether `cause` is a closed pipe, however it is wrapped: an `io::Error` of that kind, one
/// holding another error (the CSV writer's), or serde_json's error, whose `source()` skips the
/// `io::Error` it holds.
fn is_broken_pipe(cause: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    if let Some(e) = cause.downcast_ref::<std::io::Error>() {
        if e.kind() == BrokenPipe || e.get_ref().is_some_and(|inner| is_broken_pipe(inner)) {
            return true;
        }
    }
    if let Some(e) = cause.downcast_ref::<serde_json::Error>() {
        if e.io_error_kind() == Some(BrokenPipe) {
            return true;
        }
    }
    cause.source().is_some_and(is_broken_pipe)
}
