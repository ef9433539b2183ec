//! The estimator server's plugin framework (docs/rules/karmada.md §10, "Framework"): merging the
//! answers of several estimate plugins into one replica count and code.

use serde::{Deserialize, Serialize};

use super::MAX_INT32;

/// A plugin's result code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Code {
    Success,
    Unschedulable,
    /// The plugin had nothing to say (disabled, or not applicable). Karmada spells the code
    /// `Noopperation`; both spellings are read.
    #[serde(alias = "Noopperation", alias = "NoOperation")]
    Nooperation,
    Error,
}

/// One plugin's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PluginResult {
    pub replicas: u64,
    pub code: Code,
}

/// Merge plugin answers: the minimum over Success and Unschedulable answers starting at
/// MaxInt32; any Error gives 0. The code is Error over Unschedulable over (all no-operation)
/// over Success.
pub fn merge(results: &[PluginResult]) -> PluginResult {
    let mut replicas = MAX_INT32;
    let has = |c: Code| results.iter().any(|r| r.code == c);
    let code = if has(Code::Error) {
        Code::Error
    } else if has(Code::Unschedulable) {
        Code::Unschedulable
    } else if results.iter().all(|r| r.code == Code::Nooperation) {
        Code::Nooperation
    } else {
        Code::Success
    };
    for r in results {
        match r.code {
            Code::Success | Code::Unschedulable => replicas = replicas.min(r.replicas),
            Code::Error => replicas = 0,
            Code::Nooperation => {}
        }
    }
    if code == Code::Error {
        replicas = 0;
    }
    PluginResult { replicas, code }
}

/// What the estimator server returns: 0 for Unschedulable, `None` (an RPC error) for Error,
/// MaxInt32 when every plugin was a no-operation, else the merged replicas.
pub fn server_answer(results: &[PluginResult]) -> Option<u64> {
    let m = merge(results);
    match m.code {
        Code::Error => None,
        Code::Unschedulable => Some(0),
        Code::Nooperation => Some(MAX_INT32),
        Code::Success => Some(m.replicas),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(replicas: u64, code: Code) -> PluginResult {
        PluginResult { replicas, code }
    }

    #[test]
    fn precedence() {
        let m = merge(&[r(1, Code::Success), r(0, Code::Unschedulable)]);
        assert_eq!((m.replicas, m.code), (0, Code::Unschedulable));
        let m = merge(&[r(1, Code::Success), r(2, Code::Success)]);
        assert_eq!((m.replicas, m.code), (1, Code::Success));
        let m = merge(&[r(5, Code::Nooperation), r(3, Code::Success)]);
        assert_eq!((m.replicas, m.code), (3, Code::Success));
        let m = merge(&[r(5, Code::Nooperation)]);
        assert_eq!((m.replicas, m.code), (MAX_INT32, Code::Nooperation));
        let m = merge(&[r(5, Code::Success), r(7, Code::Error)]);
        assert_eq!((m.replicas, m.code), (0, Code::Error));
        assert_eq!(server_answer(&[r(5, Code::Error)]), None);
        assert_eq!(server_answer(&[r(5, Code::Unschedulable)]), Some(0));
        assert_eq!(server_answer(&[]), Some(MAX_INT32));
        let code: Code = serde_json::from_str("\"Noopperation\"").unwrap();
        assert_eq!(code, Code::Nooperation);
    }
}
