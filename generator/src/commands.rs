//! The generator's commands, for its binary (`src/main.rs`) and for tests
//! (the generator's, and the origin's, which build a site to serve): `build`
//! (and `measure`, a build and its size tables), `watch` and
//! `islands-schema`. The origin itself does not use these; its face is
//! [`crate::serve`].

pub use crate::build::{build, build_for, BuildOptions, BuildReport, Products};
pub use crate::measure::{compression_table, size_table};
pub use crate::output::Compression;
pub use crate::props::schema_document;
pub use crate::watch::{watch, EdgeAdmin, WatchOptions};
