//! eru's volume scheduling (docs/rules/eru.md D1-D7): binding strings, normal, monopoly and
//! unlimited volume plans, mounts' IOPS against disk quotas.
//!
//! A plan maps each requested destination to a device and size, e.g. `{/data: [/sda0, 100]}`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::ResourceKind;
use crate::error::{indexed, Error, Path, Result};

/// A parsed volume binding `src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub source: String,
    pub destination: String,
    /// Sorted flag letters (`"rw"` by default; `m` is monopoly).
    pub flags: String,
    pub size: u64,
    pub iops: Io,
}

/// Read and write IOPS and bytes per second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Io {
    pub read_iops: u64,
    pub write_iops: u64,
    pub read_bps: u64,
    pub write_bps: u64,
}

impl Io {
    fn is_zero(&self) -> bool {
        *self == Io::default()
    }
    fn fits(&self, quota: &Io) -> bool {
        self.read_iops <= quota.read_iops
            && self.write_iops <= quota.write_iops
            && self.read_bps <= quota.read_bps
            && self.write_bps <= quota.write_bps
    }
    fn take(&mut self, other: &Io) {
        self.read_iops -= other.read_iops;
        self.write_iops -= other.write_iops;
        self.read_bps -= other.read_bps;
        self.write_bps -= other.write_bps;
    }
}

/// How a binding is scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A share of a volume.
    Normal,
    /// A whole unused volume (flag `m`).
    Monopoly,
    /// Size 0 and no IO: bound to the roomiest volume, taking nothing.
    Unlimited,
    /// A fixed source path: not scheduled, but its IO counts against its disk.
    Mount,
}

impl Binding {
    /// Parse a binding string; errors are `invalid_volume`, located at the string itself.
    pub fn parse(text: &str) -> Result<Binding> {
        let bad = |reason: &str| Error::InvalidResource {
            field: Path::root(),
            code: ResourceKind::Volume.code(),
            reason: format!("{text:?}: {reason}"),
        };
        let parts: Vec<&str> = text.split(':').collect();
        if !matches!(parts.len(), 2..=4 | 8) {
            return Err(bad(
                "expected src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]",
            ));
        }
        if parts[1].is_empty() {
            return Err(bad("the destination is empty"));
        }
        let given = match parts.get(2).copied().unwrap_or("rw") {
            "" => "rw",
            given => given,
        };
        if !given.bytes().all(|c| c.is_ascii_alphabetic()) {
            return Err(bad("flags are letters such as rw, ro, rwm"));
        }
        // The letters in order (a counting sort: ASCII letters only).
        let flags: String = (b'A'..=b'z')
            .flat_map(|c| given.bytes().filter(move |&b| b == c))
            .map(char::from)
            .collect();
        let size = match parts.get(3) {
            Some(s) => {
                bytes(s).ok_or_else(|| bad("the size is not a size like 100, 1G, 500GiB"))?
            }
            None => 0,
        };
        let iops = if parts.len() == 8 {
            let int = |s: &str| s.parse::<u64>().map_err(|_| bad("IOPS must be integers"));
            let bps = |s: &str| bytes(s).ok_or_else(|| bad("bps must be sizes"));
            Io {
                read_iops: int(parts[4])?,
                write_iops: int(parts[5])?,
                read_bps: bps(parts[6])?,
                write_bps: bps(parts[7])?,
            }
        } else {
            Io::default()
        };
        Ok(Binding {
            source: parts[0].into(),
            destination: parts[1].into(),
            flags,
            size,
            iops,
        })
    }

    pub fn kind(&self) -> Kind {
        if !(self.source.is_empty() || self.source.ends_with("AUTO")) {
            Kind::Mount
        } else if self.flags.contains('m') {
            Kind::Monopoly
        } else if self.size == 0 && self.iops.is_zero() {
            Kind::Unlimited
        } else {
            Kind::Normal
        }
    }

    /// The full string form eru sorts requests by.
    pub fn canonical(&self) -> String {
        format!(
            "{}:{}:{}:{}:{}:{}:{}:{}",
            self.source,
            self.destination,
            self.flags,
            self.size,
            self.iops.read_iops,
            self.iops.write_iops,
            self.iops.read_bps,
            self.iops.write_bps
        )
    }
}

/// A docker-go-units size: a number with an optional binary unit (`k`, `M`, `G`, `T`, `P`,
/// optionally followed by `b`, `B`, `iB`); `1G` is 2^30.
pub fn bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(end);
    if num.is_empty() {
        return None;
    }
    let unit = unit.to_ascii_lowercase();
    let unit = unit
        .strip_suffix("ib")
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        "p" => 50,
        _ => return None,
    };
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if frac.contains('.') || int.len() > 19 {
        return None;
    }
    let whole: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut value = whole.checked_mul(1u128 << shift)?;
    if !frac.is_empty() && frac.len() <= 18 {
        let f: u128 = frac.parse().ok()?;
        value += f * (1u128 << shift) / 10u128.pow(frac.len() as u32);
    }
    u64::try_from(value).ok().filter(|&v| v <= i64::MAX as u64)
}

/// A disk with its mount points and IO capacity.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Disk {
    pub device: String,
    #[serde(default)]
    pub mounts: Vec<String>,
    #[serde(default)]
    pub read_iops: u64,
    #[serde(default)]
    pub write_iops: u64,
    #[serde(default)]
    pub read_bps: u64,
    #[serde(default)]
    pub write_bps: u64,
}

impl Disk {
    pub fn io(&self) -> Io {
        Io {
            read_iops: self.read_iops,
            write_iops: self.write_iops,
            read_bps: self.read_bps,
            write_bps: self.write_bps,
        }
    }
}

/// A node's volumes and disks.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VolumeNode {
    /// Device path -> size in bytes.
    #[serde(default)]
    pub volumes: BTreeMap<String, u64>,
    /// Device path -> bytes in use.
    #[serde(default)]
    pub usage_volumes: BTreeMap<String, u64>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// IO in use per disk device.
    #[serde(default)]
    pub usage_disks: BTreeMap<String, Io>,
}

/// One instance's volume binding: destination -> (device, size).
pub type VolumePlan = BTreeMap<String, (String, u64)>;

/// Volume capacity of a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeCapacity {
    pub capacity: u64,
    /// The plans of the instances, in the order they take them; none when nothing is bound.
    pub plans: Vec<VolumePlan>,
}

/// Free IO per disk, and which disk a path is on (longest mount prefix).
struct Quotas {
    disks: Vec<(String, Vec<String>, Io)>,
}

impl Quotas {
    fn new(node: &VolumeNode) -> Quotas {
        Quotas {
            disks: node
                .disks
                .iter()
                .map(|d| {
                    let used = node.usage_disks.get(&d.device).copied().unwrap_or_default();
                    let all = d.io();
                    let io = Io {
                        read_iops: all.read_iops.saturating_sub(used.read_iops),
                        write_iops: all.write_iops.saturating_sub(used.write_iops),
                        read_bps: all.read_bps.saturating_sub(used.read_bps),
                        write_bps: all.write_bps.saturating_sub(used.write_bps),
                    };
                    (d.device.clone(), d.mounts.clone(), io)
                })
                .collect(),
        }
    }

    fn disk_of(&self, path: &str) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (i, (_, mounts, _)) in self.disks.iter().enumerate() {
            for m in mounts {
                if path.starts_with(m.as_str()) && best.is_none_or(|(_, l)| m.len() > l) {
                    best = Some((i, m.len()));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// Take `io` from the disk of `path`; false (nothing taken) if it does not fit.
    fn take(&mut self, path: &str, io: &Io) -> bool {
        if io.is_zero() {
            return true;
        }
        match self.disk_of(path) {
            Some(d) if io.fits(&self.disks[d].2) => {
                self.disks[d].2.take(io);
                true
            }
            _ => false,
        }
    }

    fn fits(&self, path: &str, io: &Io) -> bool {
        io.is_zero()
            || self
                .disk_of(path)
                .is_some_and(|d| io.fits(&self.disks[d].2))
    }
}

/// A deploy's volume bindings, read and ordered once for every node, and its bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    bindings: Vec<Binding>,
    max_deploy: u64,
}

impl Checked {
    /// Read `requests` (binding strings) and check `max_deploy`; errors are at the caller's
    /// `paths`.
    pub fn new(requests: &[String], max_deploy: u64, paths: &Paths) -> Result<Checked> {
        if max_deploy > crate::error::MAX_TARGETS as u64 {
            return Err(Error::TooLarge {
                field: Path::fields(paths.max_deploy_count),
                limit: crate::error::MAX_TARGETS as u64,
            });
        }
        let mut bindings: Vec<Binding> = requests
            .iter()
            .enumerate()
            .map(|(i, r)| Binding::parse(r).map_err(|e| e.within(&indexed(paths.volumes, i))))
            .collect::<Result<_>>()?;
        crate::order::sort_by_key(&mut bindings, Binding::canonical);
        Ok(Checked {
            bindings,
            max_deploy,
        })
    }

    /// The bindings, in eru's order.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }
}

/// Volume plans of `node` for `requests` (binding strings), at most `max_deploy`:
/// [`Checked::new`] with the components' own field names, then [`node_plans`].
pub fn plans(node: &VolumeNode, requests: &[String], max_deploy: u64) -> Result<VolumeCapacity> {
    Ok(node_plans(
        node,
        &Checked::new(requests, max_deploy, &Paths::DEPLOY)?,
    ))
}

/// Volume plans of `node` for checked requests.
pub fn node_plans(node: &VolumeNode, checked: &Checked) -> VolumeCapacity {
    let (bindings, max_deploy) = (&checked.bindings, checked.max_deploy);
    let of = |k: Kind| -> Vec<&Binding> {
        let mut v: Vec<&Binding> = bindings.iter().filter(|b| b.kind() == k).collect();
        crate::order::sort_by_key(&mut v, |b| b.size);
        v
    };
    let (normal, mono, unlimited, mounts) = (
        of(Kind::Normal),
        of(Kind::Monopoly),
        of(Kind::Unlimited),
        of(Kind::Mount),
    );
    let mount_io = mounts.iter().any(|m| !m.iops.is_zero());
    if normal.is_empty() && mono.is_empty() && unlimited.is_empty() && !mount_io {
        // Nothing to bind: every instance's plan is empty, so none is made (an instance
        // without a plan binds nothing).
        return VolumeCapacity {
            capacity: max_deploy,
            plans: Vec::new(),
        };
    }
    if node.volumes.is_empty() && !(normal.is_empty() && mono.is_empty() && unlimited.is_empty()) {
        return VolumeCapacity {
            capacity: 0,
            plans: Vec::new(),
        };
    }
    // Used volumes (remaining size) serve normal requests; unused ones serve monopoly.
    let mut used: Vec<(String, u64)> = Vec::new();
    let mut unused: Vec<(String, u64)> = Vec::new();
    for (dev, &size) in &node.volumes {
        match node.usage_volumes.get(dev) {
            Some(&u) if u > 0 => used.push((dev.clone(), size.saturating_sub(u))),
            _ => unused.push((dev.clone(), size)),
        }
    }
    crate::order::sort_by(&mut unused, &|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    let (mut normal_plans, mut mono_plans);
    loop {
        normal_plans = normal_fill(&used, &normal, &mounts, node, max_deploy);
        mono_plans = mono_fill(&unused, &mono, node, max_deploy);
        if mono_plans.len() <= normal_plans.len() {
            break;
        }
        let Some(smallest) = normal.first().map(|b| b.size) else {
            break;
        };
        let Some(p) = unused.iter().position(|v| v.1 >= smallest) else {
            break;
        };
        used.push(unused.remove(p));
    }
    let n = normal_plans.len().min(mono_plans.len());
    let mut out: Vec<VolumePlan> = normal_plans
        .into_iter()
        .zip(mono_plans)
        .take(n)
        .map(|(mut a, b)| {
            a.extend(b);
            a
        })
        .collect();
    if !unlimited.is_empty() {
        // What is left of every volume after the plans above.
        let mut left: BTreeMap<String, u64> = node
            .volumes
            .iter()
            .map(|(d, &s)| {
                (
                    d.clone(),
                    s.saturating_sub(node.usage_volumes.get(d).copied().unwrap_or(0)),
                )
            })
            .collect();
        for plan in &out {
            for (dev, size) in plan.values() {
                if let Some(l) = left.get_mut(dev) {
                    *l = l.saturating_sub(*size);
                }
            }
        }
        let roomiest = left
            .iter()
            .fold(None::<(&String, u64)>, |best, (d, &s)| match best {
                Some((_, b)) if s <= b => best,
                _ => Some((d, s)),
            });
        let Some((dev, _)) = roomiest else {
            return VolumeCapacity {
                capacity: 0,
                plans: Vec::new(),
            };
        };
        for plan in out.iter_mut() {
            for u in &unlimited {
                plan.insert(u.destination.clone(), (dev.clone(), 0));
            }
        }
    }
    VolumeCapacity {
        capacity: out.len() as u64,
        plans: out,
    }
}

/// Normal plans: each request (size ascending) takes the smallest used volume that holds it
/// and whose disk has the IO; mounts take their IO; until a request fails.
fn normal_fill(
    used: &[(String, u64)],
    normal: &[&Binding],
    mounts: &[&Binding],
    node: &VolumeNode,
    max_deploy: u64,
) -> Vec<VolumePlan> {
    let mount_io = mounts.iter().any(|m| !m.iops.is_zero());
    if normal.is_empty() && !mount_io {
        return alloc::vec![VolumePlan::new(); max_deploy as usize];
    }
    let mut vols: Vec<(String, u64)> = used.to_vec();
    let mut quotas = Quotas::new(node);
    let mut plans = Vec::new();
    'plans: while (plans.len() as u64) < max_deploy {
        let mut plan = VolumePlan::new();
        for b in normal {
            let pick = vols
                .iter()
                .enumerate()
                .filter(|(_, v)| v.1 >= b.size && quotas.fits(&v.0, &b.iops))
                .min_by(|x, y| (x.1 .1, &x.1 .0).cmp(&(y.1 .1, &y.1 .0)))
                .map(|(i, _)| i);
            let Some(i) = pick else {
                break 'plans;
            };
            vols[i].1 -= b.size;
            quotas.take(&vols[i].0.clone(), &b.iops);
            plan.insert(b.destination.clone(), (vols[i].0.clone(), b.size));
        }
        for m in mounts {
            if !quotas.take(&m.source, &m.iops) {
                break 'plans;
            }
        }
        plans.push(plan);
    }
    plans
}

/// Monopoly plans: each unused volume (smallest first) big enough for all monopoly bindings
/// gives one plan, split among them by their sizes.
fn mono_fill(
    unused: &[(String, u64)],
    mono: &[&Binding],
    node: &VolumeNode,
    max_deploy: u64,
) -> Vec<VolumePlan> {
    if mono.is_empty() {
        return alloc::vec![VolumePlan::new(); max_deploy as usize];
    }
    let total = mono.iter().fold(0u64, |a, b| a.saturating_add(b.size));
    let mut quotas = Quotas::new(node);
    let mut plans = Vec::new();
    for (dev, size) in unused {
        if (plans.len() as u64) >= max_deploy {
            break;
        }
        let io = mono.iter().fold(Io::default(), |mut a, b| {
            a.read_iops += b.iops.read_iops;
            a.write_iops += b.iops.write_iops;
            a.read_bps += b.iops.read_bps;
            a.write_bps += b.iops.write_bps;
            a
        });
        if *size < total || !quotas.take(dev, &io) {
            continue;
        }
        let mut plan = VolumePlan::new();
        let mut given = 0u64;
        for b in mono {
            let share = if total == 0 {
                0
            } else {
                (u128::from(b.size) * u128::from(*size) / u128::from(total)) as u64
            };
            given += share;
            plan.insert(b.destination.clone(), (dev.clone(), share));
        }
        if let Some(first) = mono.first() {
            if let Some(e) = plan.get_mut(&first.destination) {
                e.1 += size - given;
            }
        }
        plans.push(plan);
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bindings() {
        let b = Binding::parse("AUTO:/data:rwm:1G").unwrap();
        assert_eq!(
            (b.flags.as_str(), b.size, b.kind()),
            ("mrw", 1 << 30, Kind::Monopoly)
        );
        assert_eq!(
            Binding::parse("AUTO:/d:rw:0").unwrap().kind(),
            Kind::Unlimited
        );
        assert_eq!(Binding::parse("/tmp:/tmp").unwrap().kind(), Kind::Mount);
        assert_eq!(bytes("500GiB"), Some(500 << 30));
        assert_eq!(bytes("100M"), Some(100 << 20));
        for bad in [
            "nodst",
            "a:",
            "AUTO:/d:rw:lots",
            "a:b:c:d:e",
            "AUTO:/d:r1:1",
        ] {
            assert_eq!(
                Binding::parse(bad).unwrap_err().code(),
                "invalid_volume",
                "{bad}"
            );
        }
    }

    /// The design document's example: {/sda0: 1000, /sda1: 200}, 100 each -> 10 + 2.
    #[test]
    fn seed_volume_example() {
        let node = VolumeNode {
            volumes: [("/sda0".into(), 1000), ("/sda1".into(), 200)].into(),
            ..VolumeNode::default()
        };
        let c = plans(&node, &["AUTO:/data:rw:100".into()], 10_000).unwrap();
        assert_eq!(c.capacity, 12);
        let on = |dev: &str| c.plans.iter().filter(|p| p["/data"].0 == dev).count();
        assert_eq!((on("/sda0"), on("/sda1")), (10, 2));
    }
}
