//! Share links: the whole scenario in the URL fragment, `#s=1.<data>`, where `1` is the link
//! format and `<data>` is the scenario's compact JSON, raw-DEFLATE compressed and base64url
//! encoded; `#h=1.<data>` holds a whole step history the same way (`{"steps": [...], ...}`,
//! each step a scenario). `#preset=<id>` names a preset instead. Reading a link never fails silently: a
//! corrupted, truncated or foreign link gives a [`LinkError`] the page shows above the default
//! scenario.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;

/// The link format this page writes and reads.
pub const LINK_VERSION: u32 = 1;

/// Links above this many bytes of JSON once inflated are refused (a scenario that large is
/// better exported as a file).
const MAX_INFLATED: usize = 8 << 20;

/// What a fragment asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// No fragment (or one this page does not use).
    None,
    Preset(String),
    Scenario(Value),
    /// A step history, as the page writes it (`{"steps": [...], "at" or "now"}`).
    History(Value),
    /// The fleet view's history (`{"source", "steps", "at"}`).
    Fleet(Value),
}

/// Why a link could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// Made by a different link format.
    Version(String),
    /// Not base64url, not DEFLATE, or not JSON.
    Corrupted(&'static str),
    /// A scenario format this page does not read.
    ScenarioVersion(String),
}

impl core::fmt::Display for LinkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LinkError::Version(v) => write!(
                f,
                "This link uses link format {v}; this playground reads format {LINK_VERSION}."
            ),
            LinkError::Corrupted(why) => write!(f, "This link is damaged ({why})."),
            LinkError::ScenarioVersion(v) => write!(
                f,
                "This link holds a scenario of format version {v}; this playground reads version {}.",
                allot_core::scenario::FORMAT_VERSION
            ),
        }
    }
}

/// The fragment (with its `#`) for a scenario.
pub fn encode(doc: &Value) -> String {
    packed("s", doc)
}

/// The fragment (with its `#`) for a step history.
pub fn encode_history(history: &Value) -> String {
    packed("h", history)
}

/// The fragment (with its `#`) for the fleet view's history.
pub fn encode_fleet(saved: &Value) -> String {
    packed("f", saved)
}

fn packed(key: &str, value: &Value) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("#{key}={LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Read a fragment.
pub fn decode(fragment: &str) -> Result<Link, LinkError> {
    let fragment = fragment.trim_start_matches('#');
    if let Some(id) = fragment.strip_prefix("preset=") {
        return Ok(Link::Preset(id.into()));
    }
    let (history, data) = match (
        fragment.strip_prefix("s="),
        fragment.strip_prefix("h="),
        fragment.strip_prefix("f="),
    ) {
        (Some(data), ..) => (false, data),
        (_, Some(data), _) => (true, data),
        (.., Some(data)) => (true, data),
        _ => return Ok(Link::None),
    };
    let fleet = fragment.starts_with("f=");
    let (version, payload) = data.split_once('.').unwrap_or(("", data));
    if version != LINK_VERSION.to_string() {
        let shown = if version.is_empty() || version.len() > 8 {
            "unknown"
        } else {
            version
        };
        return Err(LinkError::Version(shown.into()));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| LinkError::Corrupted("not base64url"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED)
        .map_err(|_| LinkError::Corrupted("the compressed data is cut or altered"))?;
    let doc: Value =
        serde_json::from_slice(&json).map_err(|_| LinkError::Corrupted("not a JSON scenario"))?;
    if fleet {
        return match doc.get("source") {
            Some(Value::Object(_)) => Ok(Link::Fleet(doc)),
            _ => Err(LinkError::Corrupted("not a fleet history")),
        };
    }
    if history {
        // Each step's scenario version is checked as the step is read.
        return match doc.get("steps") {
            Some(Value::Array(_)) => Ok(Link::History(doc)),
            _ => Err(LinkError::Corrupted("not a step history")),
        };
    }
    match doc.get("version").and_then(Value::as_u64) {
        Some(v) if v == u64::from(allot_core::scenario::FORMAT_VERSION) => Ok(Link::Scenario(doc)),
        Some(v) => Err(LinkError::ScenarioVersion(v.to_string())),
        None => Err(LinkError::Corrupted("no scenario version")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_scenario_goes_round_the_fragment() {
        let doc = json!({"version": 1, "clusters": [{"name": "member1", "weight": 2}],
                         "workload": {"replicas": 7}});
        let link = encode(&doc);
        assert!(link.starts_with("#s=1."), "{link}");
        assert_eq!(decode(&link), Ok(Link::Scenario(doc)));
    }

    #[test]
    fn a_fleet_history_goes_round_the_fragment() {
        let saved = json!({"allotFleet": 1, "source": {"example": "fleet-shop"},
                           "steps": [{"label": "cluster member1 down", "whatIf": {"clusterDown": ["member1"]}}],
                           "at": 1});
        let link = encode_fleet(&saved);
        assert!(link.starts_with("#f=1."), "{link}");
        assert_eq!(decode(&link), Ok(Link::Fleet(saved)));
        assert!(matches!(
            decode(&encode_fleet(&json!({"steps": []}))),
            Err(LinkError::Corrupted(_))
        ));
    }

    #[test]
    fn large_scenarios_compress() {
        let clusters: Vec<Value> = (0..1000)
            .map(|i| json!({"name": format!("member{i}"), "weight": i % 5 + 1}))
            .collect();
        let doc = json!({"version": 1, "clusters": clusters});
        let raw = serde_json::to_string(&doc).unwrap().len();
        assert!(
            encode(&doc).len() * 4 < raw,
            "{} vs {raw}",
            encode(&doc).len()
        );
    }

    #[test]
    fn bad_links_say_why() {
        let good = encode(&json!({"version": 1}));
        let cut = &good[..good.len() - 3];
        assert!(
            matches!(decode(cut), Err(LinkError::Corrupted(_))),
            "{:?}",
            decode(cut)
        );
        assert!(matches!(
            decode("#s=1.!!!"),
            Err(LinkError::Corrupted("not base64url"))
        ));
        assert_eq!(decode("#s=0.abc"), Err(LinkError::Version("0".into())));
        let future = encode(&json!({"version": 2}));
        assert_eq!(decode(&future), Err(LinkError::ScenarioVersion("2".into())));
        assert_eq!(decode("#preset=story1"), Ok(Link::Preset("story1".into())));
        let history = json!({"steps": [{"scenario": {"version": 1}}], "at": 0});
        assert_eq!(
            decode(&encode_history(&history)),
            Ok(Link::History(history))
        );
        assert_eq!(
            decode(&encode_history(&json!({"version": 1}))),
            Err(LinkError::Corrupted("not a step history"))
        );
        assert_eq!(decode(""), Ok(Link::None));
        assert_eq!(decode("#top"), Ok(Link::None));
    }
}
