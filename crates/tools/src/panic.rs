//! [`panic_message`]: the text of a caught panic, shared by the registry (a panicking tool)
//! and the assistant's runner (a panicking turn).

use std::any::Any;

/// The message a panic carried, when its payload was a string (what `panic!("…")` makes);
/// `None` for any other payload, where the caller names its own fallback.
pub fn panic_message(panic: &(dyn Any + Send)) -> Option<&str> {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_payloads_are_read_and_others_are_none() {
        let caught = |f: fn()| std::panic::catch_unwind(f).expect_err("it panics");
        assert_eq!(panic_message(caught(|| panic!("static")).as_ref()), Some("static"));
        assert_eq!(panic_message(caught(|| panic!("{}", 4)).as_ref()), Some("4"));
        let other = caught(|| std::panic::panic_any(7_u8));
        assert_eq!(panic_message(other.as_ref()), None);
    }
}
