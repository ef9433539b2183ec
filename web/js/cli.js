#!/usr/bin/env node
// `allot`: the package's command. `allot explain` reads Kubernetes and Karmada objects (files,
// or standard input) and prints where Karmada would place the replicas and why.
import { readFileSync } from "node:fs";
import { bindingYaml, explain, fromObjects, select, version, AllotError } from "./kubernetes.node.js";

const HELP = `usage: allot explain [-f FILE]... [--member CLUSTER=FILE]... [--policy NAME]
                     [--json | --binding]
       allot version

explain  Import the objects (Clusters, a PropagationPolicy or ClusterPropagationPolicy, the
         resource template, a ResourceBinding; YAML or JSON, Lists and several documents
         allowed) and print the placement, each filter plugin's verdict per cluster, and the
         reasons.

  -f, --filename FILE     read objects from FILE ("-": standard input); repeatable. Without
                          any, standard input is read.
  --member CLUSTER=FILE   that member cluster's own Nodes and Pods
                          (kubectl get nodes,pods -A -o yaml, run against it); repeatable
  --policy NAME           the policy to use when several select the template
  --json                  print the whole answer as JSON (scenario, report, outcome, binding)
  --binding               print the ResourceBinding Karmada would write, as YAML, with what
                          changes in its spec.clusters as comments

Examples:
  allot explain -f policy.yaml -f clusters.yaml -f deployment.yaml
  kubectl get pp,clusters,rb,deploy -o yaml | allot explain -
Exit status: 0 on success, 1 when the input is wrong or nothing can be scheduled (the error's
code and field path are printed), 2 on a usage error.`;

function usage(message) {
  process.stderr.write(`allot: ${message}\n\n${HELP}\n`);
  process.exit(2);
}

function parse(argv) {
  const o = { files: [], members: {}, policy: undefined, json: false, binding: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "-f" || a === "--filename") o.files.push(value());
    else if (a.startsWith("--filename=")) o.files.push(a.slice(11));
    else if (a === "-") o.files.push("-");
    else if (a === "--member") {
      const m = value();
      const eq = m.indexOf("=");
      if (eq < 1) usage(`--member wants CLUSTER=FILE, got ${m}`);
      (o.members[m.slice(0, eq)] ??= []).push(m.slice(eq + 1));
    } else if (a === "--policy") o.policy = value();
    else if (a === "--json") o.json = true;
    else if (a === "--binding") o.binding = true;
    else usage(`unknown argument ${a}`);
  }
  if (o.json && o.binding) usage("--json and --binding cannot go together");
  if (o.files.length === 0) o.files.push("-");
  return o;
}

function read(file) {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    process.stderr.write(`allot: cannot read ${file === "-" ? "standard input" : file}: ${e.message}\n`);
    process.exit(1);
  }
}

// A plain-text table: columns padded to their widest cell.
function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) => r.map((cell, c) => String(cell).padEnd(widths[c])).join("  ").trimEnd())
    .join("\n");
}

function verdict(v) {
  if (v.status === "passed") return "ok";
  if (v.status === "unschedulable") return "out";
  if (v.status === "disabled") return "off";
  return "-";
}

// The placement table, the filtered clusters and the reasons. `e` is an explanation, or (when
// nothing could be scheduled) the import with the steps before the division as `pipeline`.
function report(e) {
  const out = [];
  const pipeline = e.outcome?.pipeline ?? e.pipeline;
  const changes = new Map((e.binding?.changes ?? []).map((c) => [c.cluster, c]));
  const plugins = pipeline.clusters[0]?.verdicts.map((v) => v.plugin) ?? [];
  const rows = [["CLUSTER", "REPLICAS", "BEFORE", ...plugins, "SCORE", "SELECTED"]];
  for (const c of pipeline.clusters) {
    const change = changes.get(c.cluster);
    rows.push([
      c.cluster,
      change?.after ?? 0,
      change?.before ?? "-",
      ...c.verdicts.map(verdict),
      c.scores ? c.scores.total : "-",
      c.selected ? "yes" : "no",
    ]);
  }
  const workload = e.scenario.workload;
  out.push(
    `${workload.kind ?? "workload"}: ${workload.replicas ?? 0} replicas, ` +
      `strategy ${e.scenario.policy.strategy ?? "staticWeight"}`,
  );
  out.push("");
  out.push(table(rows));
  const reasons = pipeline.clusters.filter((c) => c.reason);
  if (reasons.length) {
    out.push("", "Filtered out:");
    for (const c of reasons) out.push(`  ${c.cluster}: ${c.reason}`);
  }
  const why = [...pipeline.explanation, ...(e.outcome?.trace.explanation ?? [])];
  if (why.length) {
    out.push("", "Why:");
    for (const line of why) out.push(`  ${line}`);
  }
  for (const w of e.outcome?.warnings ?? []) out.push(`warning: ${w.message}`);
  const r = e.report;
  if (r.defaulted.length || r.ignored.length) {
    out.push("", "Import:");
    for (const d of r.defaulted) out.push(`  defaulted ${d.object} ${d.field}: ${d.into}`);
    for (const d of r.ignored) out.push(`  ignored ${d.object}${d.field ? " " + d.field : ""}: ${d.into}`);
  }
  return out.join("\n") + "\n";
}

function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    process.stdout.write(HELP + "\n");
    return;
  }
  if (command === "version" || command === "--version") {
    process.stdout.write(version() + "\n");
    return;
  }
  if (command !== "explain") usage(`unknown command ${command}`);
  const o = parse(rest);
  const texts = o.files.map(read);
  const members = Object.fromEntries(
    Object.entries(o.members).map(([cluster, files]) => [cluster, files.map(read)]),
  );
  const options = { policy: o.policy, members };
  // One text is read as it is; several are a list, whose error paths start at the file's
  // index, said here as the file's name.
  const input = texts.length === 1 ? texts[0] : texts;
  const where = (path) =>
    texts.length === 1 ? path : path.replace(/^\[(\d+)\]\.?/, (_, k) => `${o.files[k] === "-" ? "stdin" : o.files[k]}: `);
  let e;
  try {
    e = explain(input, options);
  } catch (err) {
    if (!(err instanceof AllotError)) throw err;
    // When the objects import but nothing can be scheduled, the verdicts still say why.
    if (!o.json && !o.binding) {
      try {
        const imported = fromObjects(input, options);
        process.stdout.write(report({ ...imported, pipeline: select(imported.scenario) }));
      } catch {}
    }
    process.stderr.write(`error: ${err.code}${err.path ? ` at ${where(err.path)}` : ""}: ${err.message}\n`);
    process.exit(1);
  }
  if (o.json) process.stdout.write(JSON.stringify(e, null, 2) + "\n");
  else if (o.binding) process.stdout.write(bindingYaml(e));
  else process.stdout.write(report(e));
}

main(process.argv.slice(2));
