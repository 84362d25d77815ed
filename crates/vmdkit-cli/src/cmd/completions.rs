//! `vmdkit completions`: shell completion scripts (clap_complete).

use crate::error::Outcome;
use std::io::Write;

const AFTER_HELP: &str = "\
Examples:
  vmdkit completions bash > ~/.local/share/bash-completion/completions/vmdkit
  vmdkit completions zsh > ~/.zfunc/_vmdkit
  vmdkit completions fish > ~/.config/fish/completions/vmdkit.fish";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The shell to complete for
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    // Generated into memory first: clap_complete panics when its writer fails (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::command(), "vmdkit", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Outcome::Success)
}
