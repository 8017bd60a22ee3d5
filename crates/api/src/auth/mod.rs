//! Who is calling (reference §6.2): the gates as extractors ([`gate`]), the session cookie
//! ([`cookie`]) and the account wire shapes ([`wire`]).
//!
//! A request authenticates with the session cookie or with `Authorization: Bearer <API key>`;
//! when both are sent, the key is what counts. The gates:
//!
//! | extractor | accepts |
//! |---|---|
//! | [`OptionalUser`] | anyone; the caller if there is one |
//! | [`User`] | the cookie, or a `full` key |
//! | [`CvUser`] | the cookie, or a key of either scope (`/auth/me` and the CV surfaces) |
//! | [`CookieUser`] | the cookie only (key management, password change, account deletion) |
//! | [`Moderator`] | a [`User`] whose role is `moderator` |
//!
//! No caller is 401 `unauthorized`; a caller the gate does not accept (a `cv` key on a `full`
//! route, a key on a cookie-only route, a user on a moderator route) is 403 `forbidden`.

pub mod cookie;
pub mod gate;
pub mod wire;

pub use gate::{Caller, CookieUser, CvUser, Moderator, OptionalUser, User};
