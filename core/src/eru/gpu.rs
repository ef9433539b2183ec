//! eru's GPU plugin (`resource-gpu`, docs/rules/eru.md E): whole cards by product model. A
//! node holds so many cards of each product, an instance asks for so many of some products,
//! and the node takes as many instances as its scarcest requested product allows; its usage
//! and rate (cards over all the node's cards) weigh 1 in the node's mean (§B).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

use super::paths::Paths;
use super::Capacity;
use crate::error::{Error, ErrorCode, Path, Result};

/// Cards by product model (`nvidia-3090` -> 4).
pub type Cards = BTreeMap<String, u64>;

/// eru's stand-in for "no limit" in this plugin: no capacity it reports is larger (with no
/// cards asked, allot answers unlimited instead, docs/rules/eru.md E).
pub const MAX_CAPACITY: u64 = 1_000_000;

/// A node's cards and the cards its workloads hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GpuNode {
    pub cards: Cards,
    pub usage: Cards,
}

/// The plugin's answer for one node.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuCapacity {
    pub capacity: Capacity,
    /// Cards in use over the node's cards (0 for a node without cards).
    pub usage: f64,
    /// Cards one instance takes over the node's cards (0 for a node without cards).
    pub rate: f64,
    /// What bound the capacity, in a sentence.
    pub explanation: String,
}

/// An instance's cards, checked once for every node: no blank product, no count of 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    request: Cards,
    cards: u64,
}

impl Checked {
    /// Check `request`; errors are at the caller's `paths`.
    pub fn new(request: &Cards, paths: &Paths) -> Result<Checked> {
        products(request, Path::fields(paths.gpus))?;
        if let Some((product, _)) = request.iter().find(|(_, &n)| n == 0) {
            return Err(invalid(
                Path::fields(paths.gpus).field(product.clone()),
                "a GPU request asks for at least 1 card of each product it names",
            ));
        }
        Ok(Checked {
            cards: total(request),
            request: request.clone(),
        })
    }

    /// Whether any card is asked for.
    pub fn asks(&self) -> bool {
        !self.request.is_empty()
    }
}

fn invalid(field: Path, reason: &str) -> Error {
    Error::Input {
        field,
        code: ErrorCode::InvalidInput,
        reason: reason.into(),
    }
}

/// Every product named (not blank); errors at `at.<product>`.
fn products(cards: &Cards, at: Path) -> Result<()> {
    match cards.keys().find(|p| p.trim().is_empty()) {
        None => Ok(()),
        Some(p) => Err(invalid(at.field(p.clone()), "a GPU product must be named")),
    }
}

fn total(cards: &Cards) -> u64 {
    cards.values().fold(0u64, |t, &n| t.saturating_add(n))
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Capacity of `node` for `request`: [`Checked::new`] with the components' own field names,
/// then [`node_capacity`] with the node's errors within `node`.
pub fn capacity(node: &GpuNode, request: &Cards) -> Result<GpuCapacity> {
    let checked = Checked::new(request, &Paths::DEPLOY)?;
    node_capacity(node, &checked).map_err(|e| e.within(&Path::fields("node")))
}

/// Capacity, usage and rate of `node` for a checked request (docs/rules/eru.md E); errors are
/// about the node (`gpus`, `usageGpus`), located within it.
pub fn node_capacity(node: &GpuNode, checked: &Checked) -> Result<GpuCapacity> {
    products(&node.cards, Path::fields("gpus"))?;
    products(&node.usage, Path::fields("usageGpus"))?;
    let cards = total(&node.cards);
    let usage = ratio(total(&node.usage), cards);
    let rate = ratio(checked.cards, cards);
    if !checked.asks() {
        return Ok(GpuCapacity {
            capacity: Capacity::Unlimited,
            usage,
            rate,
            explanation: "gpu: no card requested -> unlimited".into(),
        });
    }
    // The scarcest requested product decides; a product the node lacks leaves 0.
    let mut capacity = MAX_CAPACITY;
    let mut scarcest = "";
    for (product, &want) in &checked.request {
        let free = node
            .cards
            .get(product)
            .copied()
            .unwrap_or(0)
            .saturating_sub(node.usage.get(product).copied().unwrap_or(0));
        let fits = free / want;
        if fits < capacity || scarcest.is_empty() {
            capacity = capacity.min(fits);
            scarcest = product;
        }
        if capacity == 0 {
            break;
        }
    }
    let have = node.cards.get(scarcest).copied().unwrap_or(0);
    let used = node.usage.get(scarcest).copied().unwrap_or(0);
    let want = checked.request.get(scarcest).copied().unwrap_or(1);
    Ok(GpuCapacity {
        capacity: Capacity::Finite(capacity),
        usage,
        rate,
        explanation: format!("gpu: {scarcest}: ({have} - {used}) / {want} = {capacity}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(spec: &[(&str, u64)]) -> Cards {
        spec.iter().map(|&(p, n)| (p.into(), n)).collect()
    }

    /// The plugin's own capacity cases (resource-extend `gpu/node_test.go`,
    /// `TestGetNodesDeployCapacity`): nodes with 4 nvidia-3070 and 4 nvidia-3090 cards.
    #[test]
    fn reference_cases() {
        let node = GpuNode {
            cards: cards(&[("nvidia-3070", 4), ("nvidia-3090", 4)]),
            usage: Cards::new(),
        };
        let cases: &[(&[(&str, u64)], Capacity)] = &[
            (&[], Capacity::Unlimited),
            (&[("nvidia-3070", 2)], Capacity::Finite(2)),
            (&[("nvidia-3070", 3)], Capacity::Finite(1)),
            (&[("nvidia-3070", 5)], Capacity::Finite(0)),
            (
                &[("nvidia-3070", 1), ("nvidia-3090", 1)],
                Capacity::Finite(4),
            ),
            (
                &[("nvidia-3070", 1), ("nvidia-3090", 2)],
                Capacity::Finite(2),
            ),
            (
                &[("nvidia-3070", 2), ("nvidia-3090", 2)],
                Capacity::Finite(2),
            ),
            (
                &[("nvidia-3070", 4), ("nvidia-3090", 4)],
                Capacity::Finite(1),
            ),
            (
                &[("nvidia-3070", 5), ("nvidia-3090", 4)],
                Capacity::Finite(0),
            ),
        ];
        for (request, want) in cases {
            let got = capacity(&node, &cards(request)).unwrap();
            assert_eq!(got.capacity, *want, "{request:?}");
            assert_eq!(got.usage, 0.0);
        }
        // A node without cards: unlimited when none is asked, usage and rate 0.
        let empty = capacity(&GpuNode::default(), &Cards::new()).unwrap();
        assert_eq!(
            (empty.capacity, empty.usage, empty.rate),
            (Capacity::Unlimited, 0.0, 0.0)
        );
    }

    /// Usage and rate count cards over every product; cards in use are not free.
    #[test]
    fn usage_and_rate_over_every_card() {
        let node = GpuNode {
            cards: cards(&[("a100", 6), ("t4", 2)]),
            usage: cards(&[("a100", 2)]),
        };
        let c = capacity(&node, &cards(&[("a100", 2)])).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(2));
        assert_eq!((c.usage, c.rate), (0.25, 0.25));
        assert_eq!(c.explanation, "gpu: a100: (6 - 2) / 2 = 2");
        // More in use than the node has leaves none free.
        let over = GpuNode {
            cards: cards(&[("t4", 1)]),
            usage: cards(&[("t4", 3)]),
        };
        let c = capacity(&over, &cards(&[("t4", 1)])).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(0));
        // eru's cap on any capacity it reports.
        let vast = GpuNode {
            cards: cards(&[("t4", 5_000_000)]),
            usage: Cards::new(),
        };
        let c = capacity(&vast, &cards(&[("t4", 1)])).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(MAX_CAPACITY));
    }

    #[test]
    fn bad_input() {
        let node = GpuNode::default();
        let e = capacity(&node, &cards(&[("t4", 0)])).unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("invalid_input", "request.gpus.t4")
        );
        let e = capacity(&node, &cards(&[(" ", 1)])).unwrap_err();
        assert_eq!(e.code(), "invalid_input");
        let blank = GpuNode {
            cards: cards(&[("", 1)]),
            usage: Cards::new(),
        };
        let e = capacity(&blank, &Cards::new()).unwrap_err();
        assert_eq!(e.code(), "invalid_input");
        assert!(
            e.field().text().starts_with("node.gpus"),
            "{}",
            e.field().text()
        );
    }
}
