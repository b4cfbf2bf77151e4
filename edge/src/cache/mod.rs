//! The cache: key, cacheability policy, the age of a response (and the HTTP-dates it reads),
//! storage, and Cache-Status/X-Cache labels.

pub mod age;
pub mod date;
pub mod key;
pub mod policy;
pub mod status;
pub mod storage;
