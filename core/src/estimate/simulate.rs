//! The first-fit simulator (docs/rules/karmada.md §8): place whole sets of components on nodes in
//! order until a set fails or the upper bound is reached.
//!
//! Cost does not grow with the number of sets. Each component keeps a cursor on the first
//! eligible node that may still fit one of its replicas (capacity only shrinks, so nodes
//! before it never fit again). When a set lands every component whole on one node, the same
//! set repeats identically while those nodes hold out, so the repeats are applied in one step.
//! A lone component is a sum of per-node fits. Results equal the one-set-at-a-time loop
//! (tested against it).

use alloc::vec::Vec;

use crate::resource::ResourceList;

/// Capacities of nodes over a fixed list of resources; column 0 is `pods`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Resource names of the columns; `columns[0] == "pods"`.
    pub columns: Vec<alloc::string::String>,
    caps: Vec<u64>,
}

/// A component ready for the simulator: per-column request (`req[0] == 1`: each replica
/// takes a pod slot) and the nodes it may use, ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimComponent {
    pub replicas: u64,
    pub req: Vec<u64>,
    pub eligible: Vec<u32>,
}

impl Grid {
    /// A grid of `n` nodes over `pods` plus `resources` (duplicates and `pods` dropped);
    /// `cap(node, resource)` gives each capacity.
    pub fn new<'a>(
        resources: impl IntoIterator<Item = &'a str>,
        n: usize,
        mut cap: impl FnMut(usize, &str) -> u64,
    ) -> Grid {
        let mut columns: Vec<alloc::string::String> = alloc::vec!["pods".into()];
        for r in resources {
            if !columns.iter().any(|c| c == r) {
                columns.push(r.into());
            }
        }
        let stride = columns.len();
        let mut caps = alloc::vec![0u64; n * stride];
        for (node, row) in caps.chunks_mut(stride).enumerate() {
            for (slot, name) in row.iter_mut().zip(&columns) {
                *slot = cap(node, name);
            }
        }
        Grid { columns, caps }
    }

    pub fn nodes(&self) -> usize {
        self.caps.len() / self.columns.len()
    }

    pub fn stride(&self) -> usize {
        self.columns.len()
    }

    /// The remaining capacity of `node` in column `col`.
    pub fn cap(&self, node: usize, col: usize) -> u64 {
        self.caps[node * self.stride() + col]
    }

    /// A component's per-column request vector (1 pod per replica).
    pub fn request(&self, requests: &ResourceList) -> Vec<u64> {
        let mut req: Vec<u64> = self.columns.iter().map(|c| requests.get(c)).collect();
        req[0] = 1;
        req
    }

    /// How many replicas of `req` fit on `node` now.
    pub fn fit(&self, node: usize, req: &[u64]) -> u64 {
        let row = &self.caps[node * self.stride()..][..self.stride()];
        row.iter()
            .zip(req)
            .filter(|&(_, &r)| r > 0)
            .map(|(&c, &r)| c / r)
            .min()
            .unwrap_or(u64::MAX)
    }

    fn take(&mut self, node: usize, req: &[u64], times: u64) {
        let stride = self.stride();
        for (c, &r) in self.caps[node * stride..][..stride].iter_mut().zip(req) {
            *c = c.saturating_sub(r.saturating_mul(times));
        }
    }

    /// Place complete sets of `components` first-fit, at most `upper`; returns how many sets
    /// completed. Capacity taken by a failed, partly placed set is not returned.
    pub fn simulate(&mut self, components: &[SimComponent], upper: u64) -> u64 {
        let active: Vec<&SimComponent> = components.iter().filter(|c| c.replicas > 0).collect();
        if active.is_empty() {
            return upper;
        }
        if let [only] = active.as_slice() {
            return self.simulate_one(only, upper);
        }
        let mut cursor = alloc::vec![0usize; active.len()];
        let mut sets = 0u64;
        // Per set: the single node each component landed on whole, if it did.
        let mut landed: Vec<Option<u32>> = alloc::vec![None; active.len()];
        while sets < upper {
            for (k, c) in active.iter().enumerate() {
                let mut need = c.replicas;
                landed[k] = None;
                let mut first = true;
                while need > 0 {
                    let Some(&node) = c.eligible.get(cursor[k]) else {
                        return sets;
                    };
                    let fit = self.fit(node as usize, &c.req);
                    if fit == 0 {
                        cursor[k] += 1;
                        continue;
                    }
                    let take = fit.min(need);
                    self.take(node as usize, &c.req, take);
                    if first && take == need {
                        landed[k] = Some(node);
                    }
                    first = false;
                    need -= take;
                    if fit == take {
                        cursor[k] += 1;
                    }
                }
            }
            sets += 1;
            if landed.iter().all(Option::is_some) {
                sets += self.repeat(&active, &landed, upper - sets);
            }
        }
        sets
    }

    /// Apply the set just placed (component `k` whole on `landed[k]`) as many more times as
    /// every node involved holds it, at most `limit`; returns the repeats.
    fn repeat(&mut self, active: &[&SimComponent], landed: &[Option<u32>], limit: u64) -> u64 {
        let stride = self.stride();
        // Consumption per involved node (few nodes: a linear list).
        let mut uses: Vec<(u32, Vec<u64>)> = Vec::new();
        for (c, node) in active.iter().zip(landed) {
            let node = node.unwrap_or(0);
            let pos = match uses.iter().position(|(n, _)| *n == node) {
                Some(p) => p,
                None => {
                    uses.push((node, alloc::vec![0; stride]));
                    uses.len() - 1
                }
            };
            for (u, &r) in uses[pos].1.iter_mut().zip(&c.req) {
                *u = u.saturating_add(r.saturating_mul(c.replicas));
            }
        }
        let mut times = limit;
        for (node, need) in &uses {
            for (col, &n) in need.iter().enumerate() {
                if let Some(t) = self.cap(*node as usize, col).checked_div(n) {
                    times = times.min(t);
                }
            }
        }
        if times > 0 {
            for (node, need) in &uses {
                self.take(*node as usize, need, times);
            }
        }
        times
    }

    /// One component: the sets are the sum of per-node fits divided by its replicas.
    fn simulate_one(&mut self, c: &SimComponent, upper: u64) -> u64 {
        let total: u64 = c
            .eligible
            .iter()
            .map(|&n| self.fit(n as usize, &c.req))
            .fold(0, u64::saturating_add);
        let sets = (total / c.replicas).min(upper);
        // Consume as the loop would: the complete sets, plus a failed partial set's replicas
        // when the bound did not stop it.
        let mut left = if sets == upper {
            sets * c.replicas
        } else {
            total
        };
        for &n in &c.eligible {
            if left == 0 {
                break;
            }
            let take = self.fit(n as usize, &c.req).min(left);
            self.take(n as usize, &c.req, take);
            left -= take;
        }
        sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    /// The spec's loop, one set at a time from the first node.
    fn naive(grid: &mut Grid, comps: &[SimComponent], upper: u64) -> u64 {
        if comps.iter().all(|c| c.replicas == 0) {
            return upper;
        }
        let mut sets = 0;
        while sets < upper {
            for c in comps {
                let mut need = c.replicas;
                for &n in &c.eligible {
                    if need == 0 {
                        break;
                    }
                    let take = grid.fit(n as usize, &c.req).min(need);
                    grid.take(n as usize, &c.req, take);
                    need -= take;
                }
                if need > 0 {
                    return sets;
                }
            }
            sets += 1;
        }
        sets
    }

    fn grid(nodes: &[(u64, u64, u64)]) -> Grid {
        Grid::new(["cpu", "memory"], nodes.len(), |n, r| match r {
            "pods" => nodes[n].0,
            "cpu" => nodes[n].1,
            _ => nodes[n].2,
        })
    }

    fn comp(g: &Grid, replicas: u64, cpu: u64, mem: u64, eligible: Vec<u32>) -> SimComponent {
        SimComponent {
            replicas,
            req: g.request(&ResourceList::from_units([("cpu", cpu), ("memory", mem)])),
            eligible,
        }
    }

    #[test]
    fn vector_examples() {
        let mut g = grid(&[(10, 6000, 6), (10, 6000, 6)]);
        let c = [
            comp(&g, 2, 3000, 3, vec![0, 1]),
            comp(&g, 1, 2000, 2, vec![0, 1]),
        ];
        assert_eq!(g.simulate(&c, 100), 1);
        let mut g = grid(&[(10, 2000, 0), (10, 2000, 0)]);
        let c = [comp(&g, 3, 1000, 0, vec![0, 1])];
        assert_eq!(g.simulate(&c, 10), 1);
    }

    proptest! {
        #[test]
        fn equals_the_one_set_loop(
            nodes in prop::collection::vec((0u64..20, 0u64..20, 0u64..20), 1..8),
            comps in prop::collection::vec((0u64..4, 0u64..5, 0u64..5, any::<u8>()), 1..4),
            upper in 0u64..200,
        ) {
            let base = grid(&nodes);
            let comps: Vec<SimComponent> = comps
                .iter()
                .map(|&(r, cpu, mem, mask)| {
                    let eligible = (0..nodes.len() as u32).filter(|n| mask >> (n % 8) & 1 == 1).collect();
                    comp(&base, r, cpu, mem, eligible)
                })
                .collect();
            let (mut a, mut b) = (base.clone(), base);
            prop_assert_eq!(a.simulate(&comps, upper), naive(&mut b, &comps, upper));
            prop_assert_eq!(a, b);
        }
    }
}
