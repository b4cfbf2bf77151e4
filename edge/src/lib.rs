//! The edge.
