//! Every adapter parser on arbitrary bytes: the first byte picks the parser
//! (`freehire_ingest::fuzzing::parsers`), the rest is its input. None may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((&pick, input)) = data.split_first() {
        freehire_ingest::fuzzing::run(usize::from(pick), input);
    }
});
