#!/usr/bin/env node
// `allot`: the package's command (also `kubectl allot`, as the kubectl-allot plugin). `allot
// explain` reads Kubernetes and Karmada objects (files, directories, or standard input) and
// prints where Karmada would place the replicas and why; `allot plan` reads a whole dump and
// prints what Karmada does with every binding when clusters fail, join or leave, policies
// change or workloads scale.
// Its flags follow kubectl's: `-f FILE|DIR|-` (`-R` for directories' subdirectories),
// `-o json|yaml|wide`, `-h` on every command.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as kubectl from "./kubectl.js";
import { bindingName, duration, placement, planReport, table, touching } from "./plan-text.js";

// The package's module a command needs, loaded when the command runs: `allot plan` the fleet
// module (the Kubernetes API and the fleet planner), every other command the smaller
// `allot/kubernetes`, so that `allot explain` neither reads nor compiles the fleet planner.
let bindingYaml, explain, fromObjects, fromYaml, planFleet, planSummary, readiness, select, toYaml, version, AllotError;
async function load(command) {
  ({ bindingYaml, explain, fromObjects, fromYaml, planFleet, planSummary, readiness, select, toYaml, version, AllotError } =
    await import(command === "plan" ? "./fleet.node.js" : "./kubernetes.node.js"));
}

const EXIT = `Exit status:
  0  the placement was printed
  1  the input is wrong, cannot be read, or nothing can be scheduled (the error's code, the
     field's path in your file and what is wrong are printed; with -o json as
     {"code", "path", "message"} on standard output)
  2  the command line is wrong (an unknown flag, a missing value)`;

const LIMITS = `Limits: at most 256 MiB of text per file (a dump of about 250,000 Clusters), any
number of objects and documents; YAML nested at most 64 levels deep, and at most 50,000
aliases (*name), replaying at most 1,000,000 events in all.`;

const HELP = {
  top: `allot: how many replicas fit where, and which cluster gets how many, as Karmada decides.

Usage:
  allot explain [-f FILE|DIR|-]... [flags]   where a workload's replicas go, and why
  allot plan [-f FILE|DIR|-]... [what-ifs] [flags]
                                             what Karmada does with every binding when the
                                             fleet changes (without -f: the control plane,
                                             through kubectl)
  allot plan [-f FILE|DIR|-]... --each cluster|zone|region [--select SELECTOR] [what-ifs]
                                             can the fleet lose any one cluster, zone or
                                             region? one row per failure, worst first
  allot version
  allot help [COMMAND]

Commands:
  explain  Print where Karmada places a workload's replicas, and why.
  plan     Print what Karmada does with every workload of a dump when the fleet changes.
  version  Print allot's version.

Each command has its own flags and exit status: run "allot COMMAND -h".`,
  explain: `Print where Karmada places a workload's replicas, and why.

Import the objects (Clusters, a PropagationPolicy or ClusterPropagationPolicy, the resource
template, a ResourceBinding; YAML or JSON as kubectl prints them, Lists and several documents
allowed) and print the placement, each filter plugin's verdict per cluster, and the reasons.

Usage:
  allot explain [-f FILE|DIR|-]... [-R] [--member CLUSTER=FILE]... [--policy NAME]
                [--karmada-version VERSION] [--feature-gates NAME=BOOL,...]
                [-o json|yaml|wide] [--binding]

Options:
  -f, --filename FILE|DIR  read objects from FILE, or from the .yaml, .yml and .json files in
                           DIR ("-": standard input); repeatable. Without any, standard
                           input is read.
  -R, --recursive          read the directories of -f and their subdirectories
      --member CLUSTER=FILE
                           that member cluster's own Nodes and Pods (kubectl get nodes,pods
                           -A -o yaml, run against it); repeatable
      --policy NAME        the policy to use, over the one Karmada's detector would choose
      --karmada-version VERSION
                           the Karmada release the objects come from (1.16, v1.17.5...):
                           its scheduler's rules apply; default the newest allot follows
      --feature-gates NAME=BOOL,...
                           the scheduler's feature gates, as Karmada reads them; those that
                           change one workload's placement are read
                           (CustomizedClusterResourceModeling, MultiplePodTemplatesScheduling,
                           SchedulingOvercommitProtection), an unset one takes the release's
                           default
  -o, --output FORMAT      json or yaml: the whole answer (scenario, report, outcome, binding,
                           resourceBinding); wide: the table with each cluster's region,
                           zones, available replicas and scores, and the policies not used
      --binding            print the ResourceBinding Karmada would write (YAML, with what
                           changes in its spec.clusters as comments; -o json: as JSON)
  -h, --help               print this help

Examples:
  allot explain -f policy.yaml -f clusters.yaml -f deployment.yaml
  allot explain -R -f manifests/ -o wide
  allot explain -f objects.yaml --karmada-version 1.17
  allot explain -f objects.yaml --feature-gates CustomizedClusterResourceModeling=false
  kubectl get pp,clusters,rb,deploy -o yaml | allot explain -f -

${LIMITS}

${EXIT}`,
  plan: `Print what Karmada does with every workload of a dump when the fleet changes.

Read a dump of the control plane (kubectl get
clusters,clustertaintpolicies,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml) and plan, like
terraform plan, what Karmada's scheduler and controllers do with every binding given the
what-ifs: which move and where, which become unschedulable and why, which stay and why;
each cluster's load before and after against its capacity; when each step happens (a
cluster's taints, evictions, rescheduling). Without what-ifs: the drift between today's
placements and what the scheduler would decide now.

Without -f, the control plane itself is read through kubectl (the kubectl on PATH, or
$KUBECTL): point it at the Karmada API server's kubeconfig (--kubeconfig, --context, as
kubectl's), not at a member cluster's.

Usage:
  allot plan [-f FILE|DIR|-]... [-R] [--cluster-down NAME]... [--cluster-up NAME]...
             [--cordon NAME]... [--uncordon NAME]... [--delete-cluster NAME]...
             [--add-cluster FILE]... [--apply FILE]... [--delete FILE]...
             [--delete-policy NAMESPACE/NAME]... [--scale KIND/NAMESPACE/NAME=N]...
             [--rebalance KIND/NAMESPACE/NAME]... [--overcommit-protection]
             [--taint-eviction] [--workload-affinity] [--feature-gates NAME=BOOL,...]
             [--enable-no-execute-taint-eviction] [--assume-healthy] [--cluster NAME]
             [--karmada-version VERSION] [-o table|wide|json|yaml] [--bindings]
  kubectl allot plan [what-ifs] [--kubeconfig FILE] [--context NAME] [-n NAMESPACE|-A]
             [-l SELECTOR] [--chunk-size N] [flags]
  allot plan [-f FILE|DIR|-]... [-R] --each cluster|zone|region [--select SELECTOR]
             [what-ifs] [flags]

What-ifs (each repeatable, all combinable):
      --cluster-down NAME     the cluster cannot be reached (Ready False: a NoSchedule taint,
                              and the taints of the ClusterTaintPolicies that match)
      --cluster-up NAME       the cluster is Ready again
      --cordon NAME           karmadactl cordon
      --uncordon NAME         karmadactl uncordon
      --delete-cluster NAME   the cluster is deleted (unjoined)
      --add-cluster FILE      the Clusters in FILE join (Ready unless their condition says not)
      --apply FILE            the policies and templates in FILE are applied over the dump's
      --delete FILE           the policies in FILE are deleted
      --delete-policy NAMESPACE/NAME
                              the PropagationPolicy is deleted (a ClusterPropagationPolicy:
                              NAME alone); its templates may go to another policy
      --scale KIND/NAMESPACE/NAME=N
                              the workload is scaled (deploy/shop/web=6)
      --rebalance KIND/NAMESPACE/NAME
                              a WorkloadRebalancer lists the workload
      --unhealthy KIND/NAMESPACE/NAME@CLUSTER
                              the member reports the workload Unhealthy there: with
                              spec.failover.application it fails over after
                              tolerationSeconds (deploy/shop/web@member2)
      --healthy KIND/NAMESPACE/NAME@CLUSTER
                              the member reports the workload Healthy there (ends a
                              graceful eviction task once the whole new placement is)

Failover readiness (can the fleet lose any one cluster, zone or region?):
      --each cluster|zone|region
                              plan every failure of one cluster, or of every cluster of a
                              zone (spec.zone, spec.zones) or a region (spec.region) at once,
                              each as --cluster-down plans it under the same settings, and
                              print one row per failure, worst first: bindings affected,
                              replicas rescheduled (and where), unplaced (and why), lost until
                              recovery (kept on a failed cluster), workloads down, clusters
                              overcommitted. With what-ifs (--apply, --cordon...), the fleet
                              after them is compared with the fleet before: does the change
                              make it less resilient?
      --select SELECTOR       only the clusters this label selector matches fail
                              (env=prod,zone in (a,b),!legacy)

Options:
  -f, --filename FILE|DIR  read objects from FILE, or from the .yaml, .yml and .json files in
                           DIR ("-": standard input); repeatable. Without any, the
                           control plane is read through kubectl.
  -R, --recursive          read the directories of -f and their subdirectories
      --feature-gates NAME=BOOL,...
                           Karmada's feature gates, as its scheduler and controller-manager
                           read them (Failover=true,SchedulingOvercommitProtection=true); an
                           unset gate takes the release's default (docs/rules/versions.md)
      --enable-no-execute-taint-eviction
                           the controller-manager's flag: with gate Failover, NoExecute
                           taints evict
      --kubeconfig FILE, --context NAME
                           without -f: the kubeconfig and context kubectl uses to reach the
                           Karmada API server
  -n, --namespace NS       without -f: the namespaced objects of NS alone (default: -A, all)
  -l, --selector SELECTOR  without -f: only the objects with these labels (kubectl's -l)
      --chunk-size N       without -f: kubectl reads N objects a request (its default 500)
      --overcommit-protection
                           the same as --feature-gates SchedulingOvercommitProtection=true
                           (1.18+): each schedule's replicas are deducted for the next ones
      --taint-eviction     the same as --feature-gates Failover=true with
                           --enable-no-execute-taint-eviction: NoExecute taints evict
      --workload-affinity  the same as --feature-gates WorkloadAffinity=true (1.17+):
                           policies' workloadAffinity groups workloads together or apart
      --no-execute-taint-eviction-purge-mode MODE
                           Gracefully (default: the old workload stays until its graceful
                           eviction task ends) or Directly (removed at once); a policy's
                           failover.cluster.purgeMode overrides it
      --graceful-eviction-timeout DURATION
                           when a graceful eviction task ends at the latest (default 10m)
      --assume-healthy     the members report each workload Healthy as soon as it is
                           placed: a graceful eviction task ends once the binding's new
                           clusters are scheduled, not at its timeout (default: only the
                           reports --healthy says)
      --at DURATION        plan the fleet as it stands this long after the what-ifs (90s,
                           5m); by default, once every timed step has run (evictions at
                           timeAdded + tolerationSeconds, tasks' ends), with the timeline
      --cluster NAME       show only what touches the cluster: the bindings placed there
                           before or after, and its load (the summary and exit status count
                           those alone)
      --karmada-version VERSION
                           the Karmada release the objects come from (default the newest)
  -o, --output FORMAT      table (default): the bindings the what-ifs change, the clusters
                           whose state or load changes, the timeline (what happens when,
                           after a cluster or an application fails), and why nothing moves
                           when nothing does; wide: every binding (with why it does not
                           change, and those already pending listed) and every cluster; json
                           or yaml: the whole plan (steps, timeline, bindings, clusters,
                           summary, report)
      --bindings           print the ResourceBindings Karmada would write (YAML; -o json:
                           as JSON)
  -h, --help               print this help

Changes already pending: a dump whose placements are not what the scheduler would choose
now changes without any event. Those changes are told apart from the what-ifs' own: a
binding's change is the event's when its placement after the events differs from the one a
scheduler restart over the dump gives it (allot plan without what-ifs); the others are
counted as "already pending before the event" (listed with -o wide; "pending": true in -o
json, where summary.pending counts them and the other counts are the event's).

Examples:
  kubectl allot plan --kubeconfig karmada-apiserver.config --cluster-down member1
  kubectl get clusters,clustertaintpolicies,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml > dump.yaml
  allot plan -f dump.yaml
  allot plan -f dump.yaml --cluster-down member2
  allot plan -f dump.yaml --apply policy.yaml -o wide
  allot plan -f dump.yaml --cluster-down member2 --cluster member3
  allot plan -f dump.yaml --cluster-down member2 --taint-eviction --at 5m
  allot plan -f dump.yaml --delete-policy shop/web
  allot plan -f dump.yaml --unhealthy deploy/shop/web@member2
  kubectl allot plan -f dump.yaml --scale deploy/shop/web=20 --overcommit-protection
  kubectl allot plan -f dump.yaml --each cluster
  allot plan -f dump.yaml --each zone --select tier=prod -o wide
  allot plan -f dump.yaml --each cluster --apply policy.yaml

Exit status (as kubectl diff):
  0  the what-ifs change nothing (changes already pending before them may be listed)
  1  the what-ifs move, evict or make unschedulable some binding; without what-ifs: some
     binding drifts
  2  nothing can be planned: no objects, no Cluster, text that is not YAML or JSON, an
     invalid object of a kind allot reads (in -f, --apply, --add-cluster), an invalid
     what-if, kubectl failing (its message shown), or the command line is wrong; the
     object, the field and what to do are printed (with -o json as {"code", "path",
     "message"} on standard output). Objects or fields allot does not read are warnings on
     standard error, and in -o json's report.warnings.
With --each:
  0  every failure leaves every replica placed on a cluster that stays up and no cluster
     overcommitted (with what-ifs: no failure harms more after them than before)
  1  some failure leaves replicas unplaced or lost, or a cluster overcommitted (with
     what-ifs: some failure harms more after them)
  2  as above`,
  version: `Print allot's version.

Usage:
  allot version

Options:
  -h, --help  print this help`,
};

const FORMATS = ["json", "yaml", "wide"];
const PLAN_FORMATS = ["table", "wide", "json", "yaml"];
const EACH = ["cluster", "zone", "region"];
// The what-ifs of `allot plan`: flag -> the field of planFleet's whatIf.
const WHAT_IFS = {
  "cluster-down": "clusterDown",
  "cluster-up": "clusterUp",
  cordon: "cordon",
  uncordon: "uncordon",
  "delete-cluster": "deleteCluster",
  "delete-policy": "deletePolicy",
  scale: "scale",
  rebalance: "rebalance",
  unhealthy: "unhealthy",
  healthy: "healthy",
};

// Leaving with an exit status: the status is set and the command's work unwound, and Node exits
// once standard output is written (process.exit would cut a large answer written to a pipe).
class Exit {
  constructor(status) {
    this.status = status;
  }
}

function exit(status) {
  process.exitCode = status;
  throw new Exit(status);
}

function usage(message, command = "top") {
  process.stderr.write(`allot: ${message}\nRun "allot ${command === "top" ? "" : command + " "}-h" for usage.\n`);
  exit(2);
}

function parse(command, args) {
  const many = { type: "string", multiple: true, default: [] };
  const options =
    command === "plan"
      ? {
          filename: { type: "string", short: "f", multiple: true, default: [] },
          recursive: { type: "boolean", short: "R", default: false },
          ...Object.fromEntries(Object.keys(WHAT_IFS).map((flag) => [flag, many])),
          "add-cluster": many,
          apply: many,
          delete: many,
          "feature-gates": many,
          "enable-no-execute-taint-eviction": { type: "boolean", default: false },
          "overcommit-protection": { type: "boolean", default: false },
          "taint-eviction": { type: "boolean", default: false },
          "no-execute-taint-eviction-purge-mode": { type: "string" },
          "graceful-eviction-timeout": { type: "string" },
          at: { type: "string" },
          "workload-affinity": { type: "boolean", default: false },
          "assume-healthy": { type: "boolean", default: false },
          cluster: { type: "string" },
          each: { type: "string" },
          select: { type: "string" },
          "karmada-version": { type: "string" },
          output: { type: "string", short: "o" },
          bindings: { type: "boolean", default: false },
          // The control plane through kubectl (without -f): kubectl's own flags.
          context: { type: "string" },
          kubeconfig: { type: "string" },
          namespace: { type: "string", short: "n" },
          "all-namespaces": { type: "boolean", short: "A", default: false },
          selector: { type: "string", short: "l" },
          "chunk-size": { type: "string" },
          help: { type: "boolean", short: "h", default: false },
        }
      : command === "explain"
      ? {
          filename: { type: "string", short: "f", multiple: true, default: [] },
          recursive: { type: "boolean", short: "R", default: false },
          member: { type: "string", multiple: true, default: [] },
          policy: { type: "string" },
          "karmada-version": { type: "string" },
          "feature-gates": { type: "string", multiple: true, default: [] },
          output: { type: "string", short: "o" },
          binding: { type: "boolean", default: false },
          // Before -o: the same as -o json.
          json: { type: "boolean", default: false },
          help: { type: "boolean", short: "h", default: false },
        }
      : { help: { type: "boolean", short: "h", default: false } };
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    usage(e.message.replace(/\. To specify a positional argument.*$/s, ""), command);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP[command] + "\n");
    exit(0);
  }
  if (command !== "explain" && command !== "plan") {
    if (positionals.length) usage(`unexpected argument ${positionals[0]}`, command);
    return values;
  }
  // A lone "-" is standard input, as `-f -`.
  for (const p of positionals) {
    if (p !== "-") usage(`unexpected argument ${p} (files are given with -f)`, command);
    values.filename.push("-");
  }
  if (command === "plan") {
    if (values.output !== undefined && !PLAN_FORMATS.includes(values.output))
      usage(`-o wants table, wide, json or yaml, got ${values.output}`, command);
    if (values.bindings && (values.output === "table" || values.output === "wide"))
      usage("--bindings prints objects: -o json or yaml", command);
    if (values.namespace !== undefined && values["all-namespaces"])
      usage("-n and -A together: one namespace, or all of them", command);
    if (values["chunk-size"] !== undefined && !/^\d+$/.test(values["chunk-size"]))
      usage(`--chunk-size wants a whole number, got ${values["chunk-size"]}`, command);
    // Without -f: the control plane, through kubectl.
    values.live = values.filename.length === 0;
    const live = ["context", "kubeconfig", "namespace", "selector", "chunk-size"].find((f) => values[f] !== undefined);
    if (!values.live && live) usage(`--${live} is kubectl's: it reads the control plane, which -f replaces`, command);
    if (values.each !== undefined && !EACH.includes(values.each))
      usage(`--each wants cluster, zone or region, got ${values.each}`, command);
    if (values.each === undefined && values.select !== undefined) usage("--select goes with --each", command);
    if (values.each !== undefined && values.bindings) usage("--bindings does not go with --each", command);
    if (values.each !== undefined && values.cluster !== undefined) usage("--cluster does not go with --each", command);
    return values;
  }
  if (values.json) values.output ??= "json";
  if (values.output !== undefined && !FORMATS.includes(values.output))
    usage(`-o wants json, yaml or wide, got ${values.output}`, command);
  if (values.binding && values.output === "wide") usage("--binding prints an object: -o json or yaml", command);
  const members = {};
  for (const m of values.member) {
    const eq = m.indexOf("=");
    if (eq < 1) usage(`--member wants CLUSTER=FILE, got ${m}`, command);
    (members[m.slice(0, eq)] ??= []).push(m.slice(eq + 1));
  }
  values.members = members;
  if (values.filename.length === 0) values.filename.push("-");
  return values;
}

// A failure: as JSON on standard output with -o json, else as text on standard error; exit 1
// (2 for plan, whose 1 means "changes", as kubectl diff's).
function fail(o, { code, path, message }) {
  if (o.output === "json") process.stdout.write(JSON.stringify({ code, path, message }, null, 2) + "\n");
  else process.stderr.write(`error: ${code}${path ? ` at ${path}` : ""}: ${message}\n`);
  exit(o.failure ?? 1);
}

const MANIFEST = /\.(ya?ml|json)$/;

// The files of one -f: the file itself, standard input, or a directory's manifests (.yaml,
// .yml, .json) in name order, its subdirectories' too with -R, as kubectl reads them.
function expand(o, name) {
  if (name === "-") return ["-"];
  let stat;
  try {
    stat = statSync(name);
  } catch (e) {
    fail(o, { code: "unreadable", path: name, message: `cannot read ${name}: ${e.code === "ENOENT" ? "no such file or directory" : e.message}` });
  }
  if (!stat.isDirectory()) return [name];
  const out = [];
  for (const entry of readdirSync(name, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(name, entry.name);
    if (entry.isDirectory()) {
      if (o.recursive) out.push(...expand(o, path));
    } else if (MANIFEST.test(entry.name)) out.push(path);
  }
  return out;
}

// The most text allot reads from one file (the module's own limit, said before reading).
const MAX_TEXT = 256 * 1024 * 1024;

function read(o, file) {
  try {
    if (file !== "-" && statSync(file).size > MAX_TEXT)
      return fail(o, { code: "too_large", path: file, message: `${file} is larger than 256 MiB, the most allot reads from one file` });
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    if (e instanceof Exit) throw e;
    const what = file === "-" ? "standard input" : file;
    return fail(o, { code: "unreadable", path: what, message: `cannot read ${what}: ${e.message}` });
  }
}

function verdict(v) {
  if (v.status === "passed") return "ok";
  if (v.status === "unschedulable") return "out";
  if (v.status === "disabled") return "off";
  return "-";
}

// The placement table, the filtered clusters and the reasons. `e` is an explanation, or (when
// nothing could be scheduled) the import with the steps before the division as `pipeline`.
// `wide` adds each cluster's region, zones, available replicas and scores.
function report(e, wide) {
  const out = [];
  const pipeline = e.outcome?.pipeline ?? e.pipeline;
  const changes = new Map((e.binding?.changes ?? []).map((c) => [c.cluster, c]));
  const clusters = new Map((e.scenario.clusters ?? []).map((c) => [c.name, c]));
  const plugins = pipeline.clusters[0]?.verdicts.map((v) => v.plugin) ?? [];
  const extra = wide ? ["REGION", "ZONES", "AVAILABLE", "LOCALITY", "AFFINITY"] : [];
  const rows = [["CLUSTER", "REPLICAS", "BEFORE", ...plugins, "SCORE", "SELECTED", ...extra]];
  const dash = (v) => v ?? "-";
  for (const c of pipeline.clusters) {
    const change = changes.get(c.cluster);
    const t = clusters.get(c.cluster) ?? {};
    rows.push([
      c.cluster,
      change?.after ?? 0,
      change?.before ?? "-",
      ...c.verdicts.map(verdict),
      c.scores ? c.scores.total : "-",
      c.selected ? "yes" : "no",
      ...(wide
        ? [
            t.region || "-",
            t.zones?.length ? t.zones.join(",") : "-",
            dash(c.availableReplicas),
            dash(c.scores?.clusterLocality),
            dash(c.scores?.clusterAffinity),
          ]
        : []),
    ]);
  }
  const workload = e.scenario.workload;
  out.push(
    `${workload.kind ?? "workload"}: ${workload.replicas ?? 0} replicas, ` +
      `strategy ${e.scenario.policy.strategy ?? "staticWeight"}`,
  );
  // Which policy propagates the template, and why (the others and why not under -o wide).
  const chosen = e.report.policy;
  if (chosen) {
    out.push(`Policy: ${chosen.why}`);
    for (const o of wide ? chosen.others : []) out.push(`  not used: ${o.policy}: ${o.why}`);
  }
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

// --- errors in the user's terms -----------------------------------------------------------

const KINDS = "Deployment, StatefulSet, ReplicaSet, Job, Pod";

// A text's documents as values (empty ones left out, as the reader leaves them out): JSON is
// one document; YAML is split at its `---` lines, each read on its own.
function documentsOf(text) {
  const t = text.trimStart();
  const parts = t.startsWith("{") || t.startsWith("[") ? [text] : text.split(/^---[ \t]*(?:#.*)?$/m);
  const out = [];
  for (const d of parts) {
    const v = fromYaml(d);
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

// Where each object of some texts is, as a path a user finds in their file: the document
// (`documents[2]`, when the text has several) and the List item (`items[5]`), after the
// file's name when there are several texts; and the object itself. Only computed for an
// error, so reading each document again on its own costs nothing otherwise.
function locations(texts, names) {
  const out = [];
  const open = (v, at) => {
    if (Array.isArray(v)) v.forEach((item, i) => open(item, `${at}[${i}]`));
    else if (v && typeof v === "object" && typeof v.kind === "string" && v.kind.endsWith("List"))
      (v.items ?? []).forEach((item, i) => open(item, join_(at, `items[${i}]`)));
    else out.push({ at, value: v });
  };
  texts.forEach((text, f) => {
    const file = texts.length > 1 ? `${names[f]}: ` : "";
    const values = documentsOf(text);
    values.forEach((v, d) => open(v, values.length > 1 ? `${file}documents[${d}]` : file));
  });
  return out;
}

// The value at `path` (`a.b[2].c`) inside `value`, if there is one.
function at(value, path) {
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (value === null || typeof value !== "object") return undefined;
    value = value[step.startsWith("[") ? Number(step.slice(1, -1)) : step];
  }
  return value;
}

// `a.b`, or `file: b` after a file's name.
const join_ = (a, b) => (a && b ? (a.endsWith(": ") ? a + b : `${a}.${b}`) : a || b);

// The error `err` of reading `texts` (named `names`; `members` the same per member) in the
// user's terms: its path as the user finds it in their file, said once; a value checked
// after reading as the user wrote it, not in allot's units (millicores, bytes).
function said(err, texts, names, members) {
  const given = err.path ?? "";
  // The message starts with its path: said once, before it.
  let message = given && err.message.startsWith(`${given}: `) ? err.message.slice(given.length + 2) : err.message;
  let path = given;
  let value = () => undefined;
  let m;
  if ((m = given.match(/^(?:members\[(\d+)\]\.)?objects\[(\d+)\]\.?(.*)$/))) {
    // The import's paths: the object's position among all the objects read.
    const member = m[1] === undefined ? undefined : Object.entries(members)[Number(m[1])];
    let where = [];
    try {
      where = member ? locations(member[1].texts, member[1].files) : locations(texts, names);
    } catch {}
    // The import's message names the object, then the field: the field is in the path.
    const field = m[3].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (field) message = message.replace(new RegExp(`^([^:]+): ${field}: `), "$1: ");
    const l = where[Number(m[2])];
    if (l) {
      path = join_(member ? `--member ${member[0]}: ` : "", join_(l.at, m[3]));
      value = () => at(l.value, m[3]);
    }
  } else if ((m = given.match(/^members\[(\d+)\]\.?(.*)$/))) {
    const member = Object.entries(members)[Number(m[1])];
    if (member) path = join_(`--member ${member[0]}: `, m[2].replace(/^objects\.?/, ""));
  } else {
    // The reader's paths: `[k].` first when several texts were read; then `documents[d].`
    // when the text has several documents.
    let k = 0;
    let rest = given;
    if (texts.length > 1 && (m = given.match(/^\[(\d+)\]\.?(.*)$/))) {
      k = Number(m[1]);
      rest = m[2];
      path = join_(`${names[k]}: `, rest);
    }
    value = () => {
      const documents = documentsOf(texts[k] ?? "");
      return at(documents.length > 1 ? { documents } : documents[0], rest);
    };
  }
  if (err.code === "negative") {
    let v;
    try {
      v = value();
    } catch {}
    if (typeof v === "string" || typeof v === "number") message = `must not be negative, got ${JSON.stringify(v)}`;
  }
  if (err.code === "too_large" && /at most 268435456$/.test(message))
    message = "the text is larger than 256 MiB, the most allot reads from one file";
  return { code: err.code, path, message };
}

// What is missing before anything can be scheduled, in Kubernetes' words: the objects hold no
// template (nor a binding that stands for one), or no Cluster.
function missing(imported) {
  const s = imported.scenario;
  const used = imported.report.used ?? [];
  const template = used.some((u) => u.into === "workload.replicas" || u.into.startsWith("workload"));
  if (!template && !imported.resource)
    return `no resource template (${KINDS}) or ResourceBinding among the objects: add the workload to place`;
  if (!(s.clusters ?? []).length) return "no Cluster among the objects: add the member clusters (kubectl get clusters -o yaml)";
  return undefined;
}

// --- allot plan -------------------------------------------------------------------------

// An error of planFleet in the user's terms: a what-if's entry as its flag and value; an
// object of --apply or --add-cluster at its file and place there; else as said() says it.
function planError(o, err, texts, names, given) {
  const path = err.path ?? "";
  const m = path.match(/^(\w+)\[(\d+)\]$/);
  const flag = m && Object.keys(WHAT_IFS).find((f) => WHAT_IFS[f] === m[1]);
  if (flag) return { code: err.code, path: `--${flag} ${o[flag][Number(m[2])]}`, message: err.message.replace(/^[^:]*\[\d+\]: /, "") };
  const w = path.match(/^(apply|addClusters|delete)(?:\[(\d+)\])?\.?(.*)$/);
  if (w) {
    const option = { apply: "apply", addClusters: "add-cluster", delete: "delete" }[w[1]];
    const files = given[option];
    const reading = w[3].startsWith("documents") || w[2] === undefined;
    // A reading error's index is the file's; the planner's is the object's among them all.
    const inner = reading ? `${files.length > 1 ? `[${w[2] ?? 0}].` : ""}${w[3]}` : `objects[${w[2]}]${w[3] ? "." + w[3] : ""}`;
    const message = err.message.startsWith(`${path}: `) ? err.message.slice(path.length + 2) : err.message;
    const at = { code: err.code, path: inner.replace(/\.$/, ""), message };
    const e = said(at, files.map((f) => f.text), files.map((f) => f.name), {});
    const lone = files.length === 1 ? `${files[0].name}: ` : "";
    return { ...e, path: `--${option} ${lone}${e.path}`.trimEnd().replace(/: $/, "") };
  }
  return said(err, texts, names, {});
}

function plan(rest) {
  const o = parse("plan", rest);
  o.failure = 2;
  let names, texts;
  if (o.live) {
    const got = kubectl.read(o, (w) => process.stderr.write(`warning: ${w}\n`));
    if (got.failure)
      fail(o, { code: "kubectl_failed", path: got.failure.command, message: `${got.failure.message}; allot plan reads the control plane through kubectl: point it at the Karmada API server (--kubeconfig, --context), or give a dump with -f` });
    names = got.texts.map((t) => t.name);
    texts = got.texts.map((t) => t.text);
  } else {
    names = o.filename.flatMap((f) => expand(o, f));
    if (names.length === 0)
      fail(o, { code: "missing", path: o.filename.join(", "), message: `no .yaml, .yml or .json files in ${o.filename.join(", ")}` });
    texts = names.map((n) => read(o, n));
  }
  const whatIf = Object.fromEntries(Object.entries(WHAT_IFS).map(([flag, field]) => [field, o[flag]]));
  if (o["feature-gates"].length) whatIf.featureGates = o["feature-gates"].join(",");
  whatIf.enableNoExecuteTaintEviction = o["enable-no-execute-taint-eviction"];
  whatIf.overcommitProtection = o["overcommit-protection"];
  whatIf.taintEviction = o["taint-eviction"];
  for (const [flag, field] of [
    ["no-execute-taint-eviction-purge-mode", "noExecuteTaintEvictionPurgeMode"],
    ["graceful-eviction-timeout", "gracefulEvictionTimeout"],
    ["at", "at"],
  ])
    if (o[flag] !== undefined) whatIf[field] = o[flag];
  whatIf.workloadAffinity = o["workload-affinity"];
  whatIf.assumeHealthy = o["assume-healthy"];
  const given = {};
  for (const flag of ["add-cluster", "apply", "delete"]) given[flag] = o[flag].map((f) => ({ name: f, text: read(o, f) }));
  const files = (list) => (list.length === 1 ? list[0].text : list.map((f) => f.text));
  if (o["add-cluster"].length) whatIf.addClusters = files(given["add-cluster"]);
  if (o.apply.length) whatIf.apply = files(given.apply);
  if (o.delete.length) whatIf.delete = files(given.delete);
  const input = texts.length === 1 ? texts[0] : texts;
  if (o.each !== undefined) return ready(o, input, texts, names, whatIf, given);
  let p;
  try {
    p = planFleet(input, { karmada: o["karmada-version"] }, whatIf);
  } catch (err) {
    failed(o, err, texts, names, whatIf, given);
  }
  // What allot does not read: a warning each, as kubectl's field validation warns.
  for (const w of p.report.warnings ?? []) process.stderr.write(`warning: ${w.object}: ${w.field}: ${w.message}\n`);
  if (o.cluster !== undefined) {
    if (!p.clusters.some((c) => c.name === o.cluster))
      fail(o, { code: "unknown_value", path: `--cluster ${o.cluster}`, message: `no Cluster named ${o.cluster} in the dump` });
    p = touching(p, o.cluster, planSummary);
  }
  const events = Object.entries(whatIf).some(([k, v]) => k !== "featureGates" && (Array.isArray(v) ? v.length > 0 : typeof v === "string"));
  if (o.bindings) {
    if (o.output === "json") process.stdout.write(JSON.stringify(p.resourceBindings, null, 2) + "\n");
    else process.stdout.write(toYaml(p.resourceBindings));
  } else if (o.output === "json") process.stdout.write(JSON.stringify(p, null, 2) + "\n");
  else if (o.output === "yaml") process.stdout.write(toYaml(p));
  else process.stdout.write(planReport(p, o.output === "wide", events));
  // 1: the what-ifs change some binding (moved, evicted, unschedulable); changes already
  // pending before them alone leave 0 (the drift, allot plan without what-ifs, says 1).
  const s = p.summary;
  exit(s.changed + s.unschedulable > 0 ? 1 : 0);
}

// A planning error in the user's terms: a what-if's entry said as its flag and value, a
// selector as --select, else the field in the user's file.
function failed(o, err, texts, names, whatIf, given) {
  if (!(err instanceof AllotError)) throw err;
  // A gate is said as the flag that set it.
  if (whatIf.featureGates !== undefined && /^(whatIf\.)?featureGates\b/.test(err.path ?? ""))
    fail(o, { code: err.code, path: `--feature-gates ${whatIf.featureGates}`, message: err.message.replace(/^[^:]*featureGates[^:]*: /, "") });
  if ((err.path ?? "").startsWith("select")) fail(o, { code: err.code, path: `--select ${o.select}`, message: err.message.replace(/^select[^:]*: /, "") });
  fail(o, planError(o, err, texts, names.map((n) => (n === "-" ? "stdin" : n)), given));
}

function readinessReport(r, wide) {
  const out = [];
  const before = r.before && new Map(r.before.rows.map((w) => [w.name, w]));
  const head = ["FAILURE", "CLUSTERS", "AFFECTED", "RESCHEDULED", "UNPLACED", "LOST", "DOWN", "OVERCOMMITTED", "SETTLED"];
  if (before) head.push("BEFORE");
  const rows = [head];
  for (const row of r.rows) {
    const to = row.to.slice(0, 3).map((d) => `${d.cluster}:${d.replicas}`).join(",");
    const cells = [
      row.name,
      row.clusters.length === 1 ? row.clusters[0] : `${row.clusters.length}`,
      row.bindings,
      row.rescheduled ? `${row.rescheduled}${to ? ` (${to}${row.to.length > 3 ? ",..." : ""})` : ""}` : "0",
      row.unplaced,
      row.lost,
      row.outages,
      row.overcommitted.map((c) => `${c.cluster} (${Object.entries(c.by).map(([k, n]) => `${k} ${n}`).join(", ")})`).join("; ") || "-",
      duration(row.settledAfter),
    ];
    // The row before the change: its harm as the planner says it.
    if (before) cells.push(before.get(row.name)?.harm ?? "(new)");
    rows.push(cells);
  }
  if (r.rows.length) out.push(table(rows));
  if (wide) {
    for (const row of r.rows) {
      if (!row.workloads.length) continue;
      out.push("", `${row.name}:`);
      const w = [["  BINDING", "OUTCOME", "BEFORE", "AFTER", "LOST", "UNPLACED"]];
      for (const b of row.workloads)
        w.push([`  ${bindingName(b.id)}${b.outage ? " (down)" : ""}`, b.outcome, placement(b.before), placement(b.after), b.lost, b.unplaced]);
      out.push(table(w));
      for (const u of row.unplacedBy) out.push(`  ${u.said}`);
    }
  }
  // The answer's sentences as the planner wrote them (the fleet view shows the same).
  out.push("", r.said);
  if (r.before) out.push(r.before.said);
  const problems = r.report.problems;
  if (problems.length) {
    out.push("", "Read:");
    for (const x of problems) out.push(`  ${x.object} ${x.field}: ${x.message}`);
  }
  return out.join("\n") + "\n";
}

// `allot plan --each`: every failure, worst first.
function ready(o, input, texts, names, whatIf, given) {
  let r;
  try {
    r = readiness(input, { karmada: o["karmada-version"] }, { ...whatIf, each: o.each, select: o.select });
  } catch (err) {
    failed(o, err, texts, names, whatIf, given);
  }
  if (o.output === "json") process.stdout.write(JSON.stringify(r, null, 2) + "\n");
  else if (o.output === "yaml") process.stdout.write(toYaml(r));
  else process.stdout.write(readinessReport(r, o.output === "wide"));
  const clean = r.before ? r.before.worse.length === 0 : r.rows.every((x) => x.unplaced + x.lost === 0 && x.overcommitted.length === 0);
  exit(clean ? 0 : 1);
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help") {
    process.stdout.write(HELP.top + "\n");
    return;
  }
  if (command === "help") {
    const topic = rest[0] ?? "top";
    if (!HELP[topic]) usage(`unknown command ${topic}`);
    process.stdout.write(HELP[topic] + "\n");
    return;
  }
  await load(command);
  if (command === "--version") {
    process.stdout.write(version() + "\n");
    return;
  }
  if (command === "version") {
    parse("version", rest);
    process.stdout.write(version() + "\n");
    return;
  }
  if (command === "plan") return plan(rest);
  if (command !== "explain") usage(`unknown command ${command}`);
  const o = parse("explain", rest);
  const names = o.filename.flatMap((f) => expand(o, f));
  if (names.length === 0)
    fail(o, { code: "missing", path: o.filename.join(", "), message: `no .yaml, .yml or .json files in ${o.filename.join(", ")}${o.recursive ? "" : " (-R reads subdirectories)"}` });
  const shown = names.map((n) => (n === "-" ? "stdin" : n));
  const texts = names.map((n) => read(o, n));
  const members = Object.fromEntries(
    Object.entries(o.members).map(([cluster, files]) => [cluster, { files, texts: files.map((f) => read(o, f)) }]),
  );
  const options = {
    policy: o.policy,
    karmada: o["karmada-version"],
    featureGates: o["feature-gates"].length ? o["feature-gates"].join(",") : undefined,
    members: Object.fromEntries(
      Object.entries(members).map(([c, m]) => [c, m.texts.length === 1 ? m.texts[0] : m.texts]),
    ),
  };
  // One text is read as it is; several are a list, whose error paths start at the text's
  // index, said as the file's name.
  const input = texts.length === 1 ? texts[0] : texts;
  let e;
  try {
    e = explain(input, options);
  } catch (err) {
    if (!(err instanceof AllotError)) throw err;
    // A gate is said as the flag that set it.
    if (options.featureGates !== undefined && /^(featureGates|policy\.gates)\b/.test(err.path ?? ""))
      fail(o, { code: err.code, path: `--feature-gates ${options.featureGates}`, message: err.message.replace(/^[^:]*(featureGates|gates)[^:]*: /, "") });
    const error = said(err, texts, shown, members);
    let imported;
    try {
      imported = fromObjects(input, options);
    } catch {}
    if (imported) {
      const what = missing(imported);
      // Not a field of the user's: what the objects lack.
      if (what) Object.assign(error, { path: "", message: what });
      // When the objects import but nothing can be scheduled, the verdicts still say why.
      else if (o.output === undefined && !o.binding)
        process.stdout.write(report({ ...imported, pipeline: select(imported.scenario) }, false));
    }
    fail(o, error);
  }
  if (o.binding) {
    if (o.output === "json") process.stdout.write(JSON.stringify(e.resourceBinding, null, 2) + "\n");
    else process.stdout.write(bindingYaml(e));
  } else if (o.output === "json") process.stdout.write(JSON.stringify(e, null, 2) + "\n");
  else if (o.output === "yaml") process.stdout.write(toYaml(e));
  else process.stdout.write(report(e, o.output === "wide"));
}

try {
  await main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof Exit)) throw e;
}
