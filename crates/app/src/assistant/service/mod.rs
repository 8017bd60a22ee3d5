//! The assistant as an application service: sessions, transcripts and streamed turns, with
//! no HTTP in sight (the API and the web pages call it).
//!
//! [`launch`] runs one turn on its own task and hands back its events ([`TurnEvents`]).

pub mod launch;

pub use launch::{EVENT_BUFFER, Launch, Release, Start, TurnEvents, TurnInput};
