//! Writing a motion: its format told by `--to` or OUT's name, and JSON and CSV holding the
//! first 64 KiB of a VMD's trailing bytes unless asked for all, and saying so.

use crate::error::usage;
use crate::input::{is_stdio, Format};
use crate::output::out_arg::output_label;
use crate::output::write::write_output;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use vmdkit::Motion;

impl Format {
    /// The format a motion output is written in: `to` (from `--to`), else OUT's extension, else
    /// for `-` (stdout) VMD; a usage error otherwise, and for binary VMD on a terminal.
    /// Commands check this before doing the work, so a bad OUT fails fast.
    /// `flag` is the option that names a format, for the message (`--to`, `--format`).
    pub fn of_output_to(path: &Path, to: Option<Format>, flag: &str) -> anyhow::Result<Format> {
        let format = match to {
            Some(format) => format,
            None if is_stdio(path) => Format::Vmd,
            None if flag.is_empty() => Format::named_by(path, "")?,
            None => Format::named_by(path, &format!("; use {flag}"))?,
        };
        refuse_binary_on_terminal(path, format)?;
        Ok(format)
    }

    /// [`Format::of_output_to`] without `--to`.
    pub fn of_output(path: &Path) -> anyhow::Result<Format> {
        Format::of_output_to(path, None, "")
    }

    /// The format `path`'s extension names; otherwise a usage error ending with `hint`.
    fn named_by(path: &Path, hint: &str) -> anyhow::Result<Format> {
        Format::from_path(path).ok_or_else(|| {
            crate::error::usage(format!(
                "cannot tell the format of {} from its extension (.vmd, .json or .csv){hint}",
                path.display()
            ))
        })
    }
}

/// A usage error for binary VMD bound for a terminal, where it would garble the screen.
pub fn refuse_binary_on_terminal(path: &Path, format: Format) -> anyhow::Result<()> {
    if format == Format::Vmd && is_stdio(path) && io::stdout().is_terminal() {
        return Err(usage(
            "refusing to write binary VMD to a terminal: redirect stdout (> out.vmd, | ...), \
             or pass --to json or --to csv",
        ));
    }
    Ok(())
}

/// How many of a VMD's trailing bytes a JSON or CSV output holds unless `--keep-trailing` asks
/// for all: files padded with gigabytes would otherwise become twice that in hex.
pub const TEXT_TRAILING_CAP: usize = 64 * 1024;

/// Writes `motion` to `path` (or stdout) in `format`. A text format holds at most
/// `max_trailing` of the trailing bytes, with a warning when that leaves some out.
pub fn save_motion(
    path: &Path,
    motion: &Motion,
    format: Format,
    pretty: bool,
    max_trailing: usize,
) -> anyhow::Result<()> {
    let style = TextStyle { pretty, bom: false, max_trailing };
    save_motion_styled(path, motion, format, style)
}

/// How JSON and CSV outputs are written.
#[derive(Clone, Copy, Debug)]
pub struct TextStyle {
    /// Indent JSON (`--pretty`).
    pub pretty: bool,
    /// Start CSV with a byte-order mark (`--bom`), for spreadsheets.
    pub bom: bool,
    /// How many of the trailing bytes to hold (see [`TEXT_TRAILING_CAP`]).
    pub max_trailing: usize,
}

/// Like [`save_motion`], with every text option.
pub fn save_motion_styled(
    path: &Path,
    motion: &Motion,
    format: Format,
    style: TextStyle,
) -> anyhow::Result<()> {
    refuse_binary_on_terminal(path, format)?;
    if format != Format::Vmd {
        warn_cut_trailing(path, motion, style.max_trailing);
    }
    write_output(path, |w| write_motion(motion, format, style, w))
}

/// Writes `motion` in `format`, text as `style` says.
fn write_motion(
    motion: &Motion,
    format: Format,
    style: TextStyle,
    out: &mut dyn Write,
) -> io::Result<()> {
    use vmdkit::convert::{CsvOptions, JsonOptions};
    let TextStyle { pretty, bom, max_trailing } = style;
    match format {
        Format::Vmd => motion.write_to(out),
        Format::Json => {
            vmdkit::convert::write_json(motion, out, JsonOptions { pretty, max_trailing })
        }
        Format::Csv => vmdkit::convert::write_csv(motion, out, CsvOptions { bom, max_trailing }),
    }
}

/// The warning of a text output that will not hold every trailing byte the VMD had (cut now,
/// or when the motion was read).
fn warn_cut_trailing(path: &Path, motion: &Motion, max_trailing: usize) {
    let kept = motion.trailing.len().min(max_trailing) as u64;
    let all = motion.trailing.len() as u64 + motion.trailing_omitted;
    if kept < all {
        let label = output_label(path);
        say!(
            "warning: {label}: holds the first {kept} of the {all} bytes after the last section \
             (convert --keep-trailing keeps them all); a VMD made from it lacks the other {}",
            all - kept
        );
    }
}
