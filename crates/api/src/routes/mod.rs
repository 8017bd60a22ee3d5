//! Route handlers, one file per resource.

pub mod health;
pub mod jobs;
pub mod search;
