//! Prints what the location parser makes of each argument, for dictionary curation:
//! `cargo run -p freehire-normalize --example parse_location -- "Berlin, Germany" "Remote - US"`.

fn main() {
    for s in std::env::args().skip(1) {
        let g = freehire_normalize::parse_location(&s);
        let countries: Vec<&str> = g.countries.iter().map(|c| c.as_str()).collect();
        let regions: Vec<&str> = g.regions.iter().map(|r| r.as_str()).collect();
        println!("{s:45} | {countries:?} {regions:?} {:?} {:?}", g.cities, g.work_mode);
    }
}
