//! The evaluation thresholds (precision matters more than recall).

use super::evaluation::evaluate;

// scenario: Floors hold
#[test]
fn evaluation_meets_the_floors() {
    let report = evaluate();
    println!("{}", report.table());
    for miss in &report.misses {
        println!("  {miss}");
    }
    assert!(report.postings >= 90, "the set holds every fixture posting");
    let floors = [
        ("countries", 0.98, 0.90),
        ("work_mode", 0.97, 0.0),
        ("seniority", 0.95, 0.0),
        ("skills", 0.90, 0.0),
    ];
    for (facet, precision, recall) in floors {
        let s = report.score(facet);
        assert!(s.predicted > 0, "{facet}: something is predicted");
        assert!(s.precision() >= precision, "{facet} precision {:.3} < {precision}", s.precision());
        assert!(s.recall() >= recall, "{facet} recall {:.3} < {recall}", s.recall());
    }
}

// The second set, text only (no adapter): printed for the report, floors enforced on the
// adapter's path in freehire-app.
#[test]
fn the_second_set_is_scored() {
    let report = super::evaluation::evaluate_new();
    println!("{}", report.table());
    for miss in &report.misses {
        println!("  {miss}");
    }
    assert_eq!(report.postings, 350, "every labelled posting of the second set");
}
