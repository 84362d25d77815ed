//! Unit tests of carrying tracks over.
