//! Combining resource plugins (docs/rules/eru.md B): a node's capacity is the minimum over the
//! plugins (a node missing from one plugin's report is dropped), its usage and rate the
//! weighted mean over every plugin (docs/rules/README.md decision 5: eru forgets the first plugin's
//! weight; allot does not).

use serde::{Deserialize, Serialize};

use super::Capacity;

/// One plugin's figure for a node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PluginFigure {
    pub capacity: Capacity,
    pub usage: f64,
    pub rate: f64,
    pub weight: f64,
}

impl PluginFigure {
    pub fn new(capacity: Capacity, usage: f64, rate: f64, weight: f64) -> Self {
        PluginFigure {
            capacity,
            usage,
            rate,
            weight,
        }
    }
}

/// A node's merged figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Merged {
    pub capacity: Capacity,
    pub usage: f64,
    pub rate: f64,
}

/// Merge one node's figures from every plugin; `None` when a plugin reports it at 0 (or
/// does not report it).
pub fn merge(figures: &[Option<PluginFigure>]) -> Option<Merged> {
    let mut capacity = Capacity::Unlimited;
    let (mut usage, mut rate, mut weight) = (0.0, 0.0, 0.0);
    for f in figures {
        let f = (*f)?;
        if f.capacity.is_zero() {
            return None;
        }
        capacity = capacity.min(f.capacity);
        usage += f.weight * f.usage;
        rate += f.weight * f.rate;
        weight += f.weight;
    }
    if weight > 0.0 {
        usage /= weight;
        rate /= weight;
    }
    Some(Merged {
        capacity,
        usage,
        rate,
    })
}

/// Σ capacity over merged nodes (unlimited if any is).
pub fn total<'a>(merged: impl IntoIterator<Item = &'a Merged>) -> Capacity {
    Capacity::sum(merged.into_iter().map(|m| m.capacity))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(capacity: Capacity, usage: f64, rate: f64, weight: f64) -> Option<PluginFigure> {
        Some(PluginFigure {
            capacity,
            usage,
            rate,
            weight,
        })
    }

    #[test]
    fn weighted_mean_over_every_plugin() {
        let m = merge(&[
            f(Capacity::Finite(4), 0.5, 0.25, 100.0),
            f(Capacity::Finite(2), 0.1, 0.05, 1.0),
        ])
        .unwrap();
        assert_eq!(m.capacity, Capacity::Finite(2));
        assert!((m.usage - 0.49603960396039604).abs() < 1e-12);
        assert!((m.rate - 0.24801980198019802).abs() < 1e-12);
        assert_eq!(merge(&[f(Capacity::Finite(3), 0.0, 0.0, 1.0), None]), None);
        let u = merge(&[
            f(Capacity::Unlimited, 0.0, 0.0, 1.0),
            f(Capacity::Finite(10_000), 0.0, 0.0, 1.0),
        ])
        .unwrap();
        assert_eq!(u.capacity, Capacity::Finite(10_000));
    }
}
