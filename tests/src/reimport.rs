//! Exported objects read back as a user's tools would: each list written as JSON text, read
//! again, and imported with the members' objects beside it.

use allot_core::json::{from_json, to_json_bytes};
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::{Object, Objects};
use allot_core::scenario::export::Exported;
use allot_core::scenario::objects::{import, Imported};

/// `objects` as JSON text, as `kubectl get -o json` would print them.
pub fn text(objects: &[Object]) -> String {
    String::from_utf8(to_json_bytes(&objects).expect("objects write")).expect("UTF-8")
}

/// The control plane's objects of `exported`, with its members' objects, imported again.
pub fn reimport(exported: &Exported) -> Imported {
    let objects: Objects = from_json(&text(&exported.objects)).expect("objects read");
    let members: Vec<(String, Objects)> = exported
        .members
        .iter()
        .map(|m| {
            let read: Objects = from_json(&text(&m.objects)).expect("a member's objects read");
            (m.cluster.clone(), read)
        })
        .collect();
    let members: Vec<(&str, Vec<Object>)> = members
        .iter()
        .map(|(c, o)| (c.as_str(), o.0.clone()))
        .collect();
    let choice = Choice {
        policy: None,
        members: &members,
        ..Choice::default()
    };
    import(&objects.0, &choice).expect("the exported objects import")
}
