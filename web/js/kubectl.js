// `allot plan` without -f: the control plane read through kubectl itself (the `kubectl` on
// PATH, or $KUBECTL), pointed at the Karmada API server by the user's kubeconfig and context.
// Each kind the fleet reads is one `kubectl get KIND -o json` (a List, paged as kubectl pages
// it: --chunk-size), so a kind the server does not serve is said by name; a progress line on
// standard error when it is a terminal.
import { spawnSync } from "node:child_process";

// The kinds the fleet reads, as kubectl names them; `optional`: a control plane may not serve
// them (ClusterTaintPolicies came with Karmada 1.14), and is read without them.
export const KINDS = [
  { name: "clusters" },
  { name: "propagationpolicies" },
  { name: "clusterpropagationpolicies" },
  { name: "resourcebindings" },
  { name: "clusterresourcebindings" },
  { name: "priorityclasses" },
  { name: "deployments" },
  { name: "statefulsets" },
  { name: "replicasets" },
  { name: "jobs" },
  { name: "pods" },
  { name: "clustertaintpolicies", optional: true },
];

// kubectl's flags given to allot plan, passed through as given.
export const PASSED = ["context", "kubeconfig", "namespace", "selector", "chunk-size"];

// The arguments of one `kubectl get` of `kind`: all namespaces unless -n names one.
export function args(kind, o) {
  const out = ["get", kind, "-o", "json"];
  if (o.context !== undefined) out.push("--context", o.context);
  if (o.kubeconfig !== undefined) out.push("--kubeconfig", o.kubeconfig);
  if (o.namespace !== undefined) out.push("--namespace", o.namespace);
  else out.push("--all-namespaces");
  if (o.selector !== undefined) out.push("--selector", o.selector);
  if (o["chunk-size"] !== undefined) out.push("--chunk-size", o["chunk-size"]);
  return out;
}

// The control plane's objects as JSON texts (one List per kind), or a failure: the command,
// kubectl's exit status and what it said. `warn` is told of an optional kind not served.
export function read(o, warn) {
  const kubectl = process.env.KUBECTL || "kubectl";
  const tty = process.stderr.isTTY;
  const texts = [];
  for (const [k, kind] of KINDS.entries()) {
    if (tty) process.stderr.write(`\rreading ${kind.name} from the control plane (${k + 1}/${KINDS.length})\x1b[K`);
    const a = args(kind.name, o);
    const r = spawnSync(kubectl, a, { encoding: "utf8", maxBuffer: 256 << 20 });
    if (r.error || r.status !== 0) {
      const said = (r.stderr ?? "").trim();
      if (kind.optional && /doesn't have a resource type|the server could not find the requested resource/.test(said)) {
        warn(`the control plane serves no ${kind.name}: read without them`);
        continue;
      }
      if (tty) process.stderr.write("\r\x1b[K");
      const why = r.error
        ? r.error.code === "ENOENT"
          ? `${kubectl} not found (install kubectl, or set KUBECTL to its path)`
          : r.error.message
        : `exit status ${r.status}${said ? `: ${said}` : ""}`;
      return { failure: { command: `${kubectl} ${a.join(" ")}`, message: why } };
    }
    texts.push({ name: `kubectl get ${kind.name}`, text: r.stdout });
  }
  if (tty) process.stderr.write("\r\x1b[K");
  return { texts };
}
