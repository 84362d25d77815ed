//! vmdkit-draw's integration tests, in one binary so that the crates are linked once: one module
//! per idea (the module path is the file name).

mod figure;
mod plot;
