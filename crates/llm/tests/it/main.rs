#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests: the OpenAI client against a local server speaking the real protocol,
//! and the scripted model.

mod openai;
mod scripted;
mod server;
