//! The cache: key, cacheability policy, storage, and Cache-Status/X-Cache labels.

pub mod key;
pub mod policy;
pub mod status;
pub mod storage;
