//! The plan and the session's state read back from their JSON (what the package's fleet
//! worker sends the fleet view, which reads it into these same types): each type written then
//! read gives the same value.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::import::Choice;
use super::objects::{Object, Objects};
use super::plan::{plan, BindingState, ClusterState, Session, State, WhatIf};
use crate::karmada::fleet::app_failover::Held;
use crate::karmada::fleet::capacity::Load;
use crate::karmada::fleet::clock::Wait;
use crate::karmada::fleet::entry::{BindingKind, Condition, Id};
use crate::karmada::fleet::events::{Change, Enqueued, Noted, Why, WhyNot};
use crate::karmada::fleet::eviction::Due;
use crate::karmada::fleet::plan::{
    BindingPlan, ClusterPlan, Outcome, Placed, Plan, Step, Summary, Unchanged,
};
use crate::karmada::fleet::triggers::{Skip, Trigger};
use crate::karmada::fleet::Pass;
use crate::kubernetes::fleet::dump::DUMP;

/// `value` written as JSON and read back; fails the test when it differs.
fn round<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) -> String {
    let text = serde_json::to_string(value).expect("writes");
    let back: T =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
    assert_eq!(&back, value, "{text}");
    text
}

fn objects() -> Vec<Object> {
    serde_json::from_str::<Objects>(DUMP).unwrap().0
}

/// The plans of what-ifs that between them reach each outcome.
fn plans() -> Vec<Plan> {
    let asks = [
        WhatIf::default(),
        WhatIf {
            cluster_down: alloc::vec!["member1".into()],
            taint_eviction: true,
            ..WhatIf::default()
        },
        WhatIf {
            cordon: alloc::vec!["member2".into()],
            ..WhatIf::default()
        },
        WhatIf {
            scale: alloc::vec!["deploy/shop/web=40".into()],
            ..WhatIf::default()
        },
        WhatIf {
            delete_cluster: alloc::vec!["member1".into()],
            ..WhatIf::default()
        },
    ];
    asks.iter()
        .map(|w| {
            plan(&objects(), &Choice::default(), w, &[], &[])
                .unwrap()
                .plan
        })
        .collect()
}

#[test]
fn a_plan_and_each_of_its_parts_read_back_as_written() {
    let plans = plans();
    let mut outcomes = BTreeMap::new();
    for p in &plans {
        let without_steps = |p: &Plan| Plan {
            steps: Vec::new(),
            ..p.clone()
        };
        round(&without_steps(p));
        round(&p.summary);
        round(&without_steps(&p.clone().touched()));
        for s in &p.steps {
            round::<Step>(s);
            round::<Enqueued>(&s.queued);
            for n in &s.queued.enqueued {
                round::<Noted<Why>>(n);
                round::<Why>(&n.why);
            }
            for n in &s.queued.not_enqueued {
                round::<Noted<WhyNot>>(n);
                round::<WhyNot>(&n.why);
            }
            for n in &s.passes {
                round::<Noted<Pass>>(n);
            }
        }
        for b in &p.bindings {
            round::<BindingPlan>(b);
            round::<Placed>(&b.before);
            round::<Placed>(&b.after);
            let outcome = round::<Outcome>(&b.outcome);
            if let Outcome::Unchanged { why } = &b.outcome {
                round::<Unchanged>(why);
            }
            let tag = String::from(outcome.split('"').nth(3).unwrap_or_default());
            outcomes.insert(tag, ());
        }
        for c in &p.clusters {
            round::<ClusterPlan>(c);
            round::<Load>(&c.before);
            round::<Load>(&c.after);
        }
    }
    // The what-ifs reach the outcomes but an eviction the scheduler does not follow (below).
    assert_eq!(
        outcomes.keys().map(String::as_str).collect::<Vec<_>>(),
        ["changed", "unchanged", "unschedulable"]
    );
}

#[test]
fn a_sessions_state_reads_back_as_written() {
    let session = Session::read(objects(), &Choice::default()).unwrap();
    let what = WhatIf {
        cluster_down: alloc::vec!["member1".into()],
        ..WhatIf::default()
    };
    let (_, after) = session.plan(&Choice::default(), &what, &[], &[]).unwrap();
    for s in [&session, &after] {
        let state = s.state();
        assert!(!state.bindings.is_empty() && !state.clusters.is_empty());
        round::<State>(&state);
        for c in &state.clusters {
            round::<ClusterState>(c);
        }
        for b in &state.bindings {
            round::<BindingState>(b);
        }
        round::<Vec<ClusterState>>(&s.clusters());
    }
    // The cluster down says so in the state after, as it is read back.
    let text = serde_json::to_string(&after.state()).unwrap();
    let back: State = serde_json::from_str(&text).unwrap();
    assert_ne!(
        back.clusters[0].load.state,
        session.state().clusters[0].load.state
    );
}

#[test]
fn reasons_the_what_ifs_above_do_not_reach_read_back_too() {
    let held = WhyNot::FailoverHeld {
        held: Held::TaskOptions {
            cluster: "member1".into(),
            message: "no resource".into(),
        },
    };
    // One `reason` key: the controller's own reason is its `held`.
    assert_eq!(
        round(&held),
        r#"{"reason":"failoverHeld","held":"taskOptions","cluster":"member1","message":"no resource"}"#
    );
    for why in [
        WhyNot::NotClaimed,
        WhyNot::SpecUnchanged,
        WhyNot::AlreadyTriggered,
        WhyNot::Tolerated {
            cluster: "member1".into(),
            due: Due::At(30),
        },
        WhyNot::Tolerated {
            cluster: "member1".into(),
            due: Due::Never,
        },
    ] {
        round(&why);
        round(&Outcome::Unchanged {
            why: Unchanged::NotEnqueued { why },
        });
    }
    for why in [
        Why::Restart,
        Why::Created,
        Why::SpecChanged {
            change: Change::Evicted("member1".into()),
        },
        Why::SpecChanged {
            change: Change::RescheduleTriggered,
        },
        Why::Retried {
            waited: Wait::Backoff,
        },
    ] {
        round(&Outcome::Unchanged {
            why: Unchanged::NoTrigger { enqueued: why },
        });
    }
    round(&Outcome::Unchanged {
        why: Unchanged::SameResult {
            trigger: Trigger::ReplicasChanged,
        },
    });
    round(&Outcome::Evicted);
    round(&Outcome::Unschedulable {
        condition: Condition::NoClusterFit("0/2 clusters are available".into()),
    });
    round(&Pass::Skipped {
        why: Skip::NoTrigger,
    });
    let id = Id {
        kind: BindingKind::ClusterResourceBinding,
        namespace: "".into(),
        name: "admin-clusterrole".into(),
    };
    round(&Noted {
        index: 0,
        binding: id,
        why: Why::Created,
    });
    round(&Placed::from(BTreeMap::from([("member1".into(), 3)])));
    round(&Summary::default());
}
