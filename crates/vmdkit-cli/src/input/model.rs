//! Reading a model (PMX, PMD, or a PmxEditor bone CSV), from a file or stdin.

use crate::input::motion::refuse_folder;
use crate::input::seen::note_input;
use crate::input::stdio::{is_stdio, stdin_bytes};
use std::path::Path;
use vmdkit::model::Model;

/// Reads a model. The error names the file (and, for damage, the section, record and offset)
/// once: it is flattened to its message so that the cause is not printed twice.
pub fn read_model(path: &Path) -> anyhow::Result<Model> {
    if is_stdio(path) {
        let data = stdin_bytes()?;
        return Model::parse(data)
            .map_err(|e| anyhow::anyhow!("cannot read the model from stdin: {e}"));
    }
    refuse_folder(path, "a model file")?;
    note_input(path);
    Model::read_file(path).map_err(|e| anyhow::anyhow!("cannot read the model: {e}"))
}
