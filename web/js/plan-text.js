// `allot plan`'s table: the plan (planFleet's answer) as a person reads it. What the events
// cause apart from what was already pending (docs/rules/fleet.md §30.3); each binding's
// sentence as the planner wrote it (`because`, the words the fleet view shows too); CPU in
// cores (millicores only below one core), memory in binary units; plurals; cells cut to a
// width a terminal holds, in full with -o wide.

// A plain-text table: columns padded to their widest cell.
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) => r.map((cell, c) => String(cell).padEnd(widths[c])).join("  ").trimEnd())
    .join("\n");
}

// `n word` or `n words`, with thousands separated (`8,637 bindings`).
export const count = (n, one, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

const SUFFIX = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

// A Kubernetes quantity ("16500m", "6", "128Gi", "1e3", or a number) as a number of base units.
export function quantity(q) {
  if (typeof q === "number") return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(String(q ?? "0").trim());
  if (!m) return NaN;
  return Number(m[1]) * (m[2] ? SUFFIX[m[2]] ?? NaN : 1);
}

// `x` with at most `digits` decimals, the trailing zeros of its fraction left out.
const trim = (x, digits) => {
  const s = x.toFixed(digits);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
};

// CPU as a person reads it: cores ("16.5", "6"), millicores below one core ("500m").
export function cores(q) {
  const n = quantity(q);
  if (!Number.isFinite(n)) return String(q);
  if (n !== 0 && Math.abs(n) < 1) return `${Math.round(n * 1000)}m`;
  return trim(n, 2);
}

// Memory in binary units ("15.5Gi", "512Mi").
export function binary(q) {
  let n = quantity(q);
  if (!Number.isFinite(n)) return String(q);
  for (const unit of ["", "Ki", "Mi", "Gi", "Ti", "Pi"]) {
    if (Math.abs(n) < 1024 || unit === "Pi") return unit ? `${trim(n, 1)}${unit}` : trim(n, 0);
    n /= 1024;
  }
}

// A cell cut to `width` characters, its end said by "…".
export const cut = (text, width) => {
  const s = String(text);
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
};

export const placement = (clusters) =>
  Object.entries(clusters)
    .map(([c, n]) => `${c}:${n}`)
    .join(",") || "-";

export const bindingName = (id) =>
  id.kind === "ResourceBinding" ? `rb/${id.namespace}/${id.name}` : `crb/${id.name}`;

// The counts of a plan's bindings and clusters, as the planner counts them (Summary::of):
// what the events cause, apart from the bindings whose change was already pending.
export function summarize(bindings, clusters) {
  const caused = bindings.filter((b) => !b.pending);
  const is = (b, ...outcomes) => outcomes.includes(b.outcome);
  return {
    bindings: bindings.length,
    changed: caused.filter((b) => is(b, "changed", "evicted")).length,
    unschedulable: caused.filter((b) => is(b, "unschedulable")).length,
    unchanged: caused.filter((b) => is(b, "unchanged")).length,
    movedReplicas: caused.reduce((n, b) => n + b.moved, 0),
    unplacedReplicas: caused.filter((b) => !is(b, "unchanged")).reduce((n, b) => n + b.unplaced, 0),
    pending: bindings.length - caused.length,
    overcommittedClusters: clusters.filter((c) => Object.keys(c.overcommit).length > 0).length,
  };
}

// Counts with their sentence.
const said = (counts, planSummary) => ({ ...counts, said: planSummary(counts) });

// The rows of some bindings; `full`: cells not cut.
function bindingRows(bindings, full) {
  const w = (text, width) => (full ? String(text) : cut(text, width));
  const rows = [["BINDING", "OUTCOME", "BEFORE", "AFTER", "MOVED", "UNPLACED", "WHY"]];
  for (const b of bindings)
    rows.push([
      w(bindingName(b.id), 60),
      b.outcome,
      w(placement(b.before), 40),
      w(placement(b.after), 40),
      b.moved,
      b.unplaced,
      w(b.because, 100),
    ]);
  return rows;
}

// Seconds as Go writes a duration: 0s, 90s -> 1m30s, 300 -> 5m0s is said 5m.
export function duration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const text = `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
  return text || "0s";
}

// The timeline's section: what the controllers did, when (with what-ifs that start timed
// steps: a cluster's condition, taints, evictions, reports).
function timeline(p) {
  const list = p.timeline ?? [];
  if (!list.some((t) => t.kind !== "scheduled" && t.kind !== "unschedulable")) return [];
  const rows = [["AT", "WHAT"]];
  // A binding that fails again as it failed is said once (the planner marks the repeats).
  for (const t of list) if (!t.again) rows.push([duration(t.at), t.said]);
  return ["Timeline:", table(rows), ""];
}

// The plan as text. `wide`: every binding (the unchanged with why, the pending listed), every
// cluster, cells in full; else the bindings the events change, the clusters whose state or
// load changes, and why nothing moves when nothing does.
export function planReport(p, wide, events) {
  const out = [];
  const changes = (b) => b.outcome !== "unchanged";
  const caused = p.bindings.filter((b) => !b.pending && (wide || changes(b)));
  const pending = p.bindings.filter((b) => b.pending);
  if (caused.length) out.push(table(bindingRows(caused, wide)), "");
  if (pending.length) {
    out.push(
      `Already pending before the event: ${count(pending.length, "binding")} the scheduler would ` +
        `change the same way without it (a restart over the dump: allot plan without what-ifs)` +
        (wide ? ":" : "; -o wide lists them."),
    );
    if (wide) out.push(table(bindingRows(pending, wide)));
    out.push("");
  }
  const changed = (c) =>
    c.state !== c.stateBefore || c.before.replicas !== c.after.replicas || Object.keys(c.overcommit).length > 0;
  const clusters = p.clusters.filter((c) => wide || changed(c));
  if (clusters.length) {
    const state = (c) => (c.state === c.stateBefore ? c.state : `${c.stateBefore} -> ${c.state}`);
    const rows = [["CLUSTER", "STATE", "REPLICAS", "CPU (CORES)", "ALLOCATABLE CPU", "FREE CPU", "MEMORY", "OVERCOMMIT"]];
    for (const c of clusters) {
      const over = Object.entries(c.overcommit)
        .map(([r, n]) => `${r} ${r === "cpu" ? cores(n) : r === "memory" ? binary(n) : n}`)
        .join(", ");
      rows.push([
        c.name,
        wide ? state(c) : cut(state(c), 60),
        `${c.before.replicas} -> ${c.after.replicas}`,
        `${cores(c.before.requests.cpu ?? 0)} -> ${cores(c.after.requests.cpu ?? 0)}`,
        c.allocatable.cpu === undefined ? "-" : cores(c.allocatable.cpu),
        c.free.cpu === undefined ? "-" : cores(c.free.cpu),
        `${binary(c.before.requests.memory ?? 0)} -> ${binary(c.after.requests.memory ?? 0)}`,
        over || "-",
      ]);
    }
    out.push(table(rows), "");
  }
  out.push(...timeline(p));
  const s = p.summary;
  // When nothing moves: why, for each binding the events concerned, grouped by sentence.
  if (events && s.changed + s.unschedulable === 0) {
    const concerned = p.bindings.filter((b) => !b.pending && b.outcome === "unchanged" && b.why?.reason !== "untouched");
    const by = new Map();
    for (const b of concerned) by.set(b.because, (by.get(b.because) ?? 0) + 1);
    if (by.size) {
      out.push("Why nothing moves:");
      for (const [because, n] of [...by].sort((a, b) => b[1] - a[1])) out.push(`  ${count(n, "binding")}: ${because}`);
      out.push("");
    } else out.push("Why nothing moves: no binding is placed where the events happen.", "");
  }
  // The counts' sentence as the planner wrote it (the fleet view shows the same).
  out.push(`Plan${p.cluster === undefined ? "" : ` (touching ${p.cluster})`}: ${s.said}`);
  for (const c of p.caveats ?? []) out.push(`Note: ${c}`);
  const problems = p.report.problems;
  if (problems.length) {
    out.push("", "Read:");
    for (const x of problems) out.push(`  ${x.object} ${x.field}: ${x.message}`);
  }
  return out.join("\n") + "\n";
}

// The part of plan `p` that touches cluster `name`: the bindings placed there before or
// after (their steps and ResourceBindings too), that cluster's load, and the summary of those,
// said by `planSummary` (the planner's words for counts).
export function touching(p, name, planSummary) {
  const on = (clusters) => Object.hasOwn(clusters, name);
  const bindings = p.bindings.filter((b) => on(b.before) || on(b.after));
  const ids = new Set(bindings.map((b) => bindingName(b.id)));
  const kept = (list) => list.filter((n) => ids.has(bindingName(n.binding)));
  const clusters = p.clusters.filter((c) => c.name === name);
  return {
    ...p,
    cluster: name,
    steps: p.steps.map((s) => ({ ...s, enqueued: kept(s.enqueued), notEnqueued: kept(s.notEnqueued), passes: kept(s.passes) })),
    bindings,
    clusters,
    timeline: (p.timeline ?? []).filter((t) => (t.binding ? ids.has(bindingName(t.binding)) : t.cluster === name)),
    summary: said(summarize(bindings, clusters), planSummary),
    resourceBindings: p.resourceBindings.filter((o) =>
      ids.has(bindingName({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name })),
    ),
  };
}
