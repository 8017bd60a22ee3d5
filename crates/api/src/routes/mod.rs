//! Route handlers, one file per resource.

pub mod auth;
pub mod companies;
pub mod health;
pub mod jobs;
pub mod me;
pub mod search;
