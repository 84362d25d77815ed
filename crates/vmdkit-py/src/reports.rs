//! What reading repaired (`Repair`) and what linting found (`LintWarning`), as small frozen
//! objects; and the JSON-to-Python conversion both use for their details.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

/// A JSON value as the Python value `json.loads` would give.
pub fn json_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// A repair lenient reading made to read a damaged file.
///
/// `kind` is one of `unknown_signature`, `undercounted`, `truncated`, `cut_count`,
/// `discarded`, `rejected`; `section` the section it concerns (None for the signature);
/// `offset` the byte offset of that section's count (None for the signature); `message` says it
/// in a sentence; `details` holds every field of the repair (declared count, records kept,
/// bytes dropped, ...).
#[pyclass(module = "vmdkit", frozen)]
pub struct Repair {
    /// What was repaired.
    #[pyo3(get)]
    kind: String,
    /// The section it concerns, or None.
    #[pyo3(get)]
    section: Option<&'static str>,
    /// Byte offset of the section's count, or None.
    #[pyo3(get)]
    offset: Option<u64>,
    /// The repair in a sentence.
    #[pyo3(get)]
    message: String,
    details: Value,
}

#[pymethods]
impl Repair {
    /// Every field of the repair, as a new dict (`kind` included).
    #[getter]
    fn details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.details)
    }

    fn __repr__(&self) -> String {
        format!("<vmdkit.Repair {}: {}>", self.kind, self.message)
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }
}

impl Repair {
    /// The Python object for `repair`.
    pub fn new(repair: &vmdkit::Repair) -> Self {
        let details = serde_json::to_value(repair).unwrap_or(Value::Null);
        let kind = details.get("kind").and_then(Value::as_str).unwrap_or("unknown").to_string();
        let offset = details.get("offset").and_then(Value::as_u64);
        Repair {
            kind,
            section: repair.section().map(|s| s.name()),
            offset,
            message: repair.to_string(),
            details,
        }
    }
}

/// A warning about a motion that reads correctly but holds something worth knowing.
///
/// `kind` is a snake_case name (`duplicate_keys`, `unsorted_keys`, `physics_off`,
/// `non_unit_quaternion`, `repaired`, ...); `section` the section (None for the header and
/// for bytes after the last section); `count` how many keys it concerns (bytes, for
/// `trailing_bytes`); `message` the sentence `vmdkit check` prints, with an example.
#[pyclass(module = "vmdkit", frozen)]
pub struct LintWarning {
    /// What the warning is about.
    #[pyo3(get)]
    kind: &'static str,
    /// The section, or None.
    #[pyo3(get)]
    section: Option<&'static str>,
    /// Keys (or bytes) it concerns.
    #[pyo3(get)]
    count: u64,
    /// The warning in a sentence.
    #[pyo3(get)]
    message: String,
}

#[pymethods]
impl LintWarning {
    fn __repr__(&self) -> String {
        let at = self.section.map(|s| format!(" in {s}")).unwrap_or_default();
        format!("<vmdkit.LintWarning {}{at} ×{}: {}>", self.kind, self.count, self.message)
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }
}

impl LintWarning {
    /// The Python object for `warning`.
    pub fn new(warning: &vmdkit::lint::Warning) -> Self {
        LintWarning {
            kind: warning.kind.name(),
            section: warning.section.map(|s| s.name()),
            count: warning.count,
            message: warning.message.clone(),
        }
    }
}
