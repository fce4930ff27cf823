//! Unit tests of src/timeline.rs (`timeline::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::ChainConfig;
use sgviz::timeline::*;

#[test]
fn recording_while_rewound_forgets_the_later_branch() {
    let mut t = Timeline::start(&ChainConfig::new("gaussian", "sgld", 1));
    t.record(100, Event::Discard);
    t.record(300, Event::SamplerParam("step_size".into(), 0.1));
    t.reached(500);
    assert_eq!(t.furthest(), 500);
    assert_eq!(t.next_event_step(0), Some(100));
    assert_eq!(t.next_event_step(100), Some(300));
    assert_eq!(t.next_event_step(300), None);
    // Rewound to 200 and changed something: the event at 300 belonged to the old branch.
    t.record(200, Event::SamplerParam("step_size".into(), 0.2));
    assert_eq!(t.furthest(), 200);
    assert_eq!(t.next_event_step(100), Some(200));
    assert_eq!(t.next_event_step(200), None);
    assert_eq!(t.events_at(200).collect::<Vec<_>>(), vec![&Event::SamplerParam("step_size".into(), 0.2)]);
}

#[test]
fn a_broken_timeline_refuses_to_go_back_but_not_forward() {
    let mut t = Timeline::start(&ChainConfig::new("gaussian", "sgld", 1));
    assert!(t.refuse_seek(500, 100).is_none());
    t.break_at(400);
    assert!(t.refuse_seek(500, 100).unwrap().contains("press Reset"));
    assert!(t.refuse_seek(500, 900).is_none());
}
