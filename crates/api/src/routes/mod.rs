//! Route handlers, one file per resource.

pub mod companies;
pub mod health;
pub mod jobs;
pub mod search;
