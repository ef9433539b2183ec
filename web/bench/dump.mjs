// Writes a control plane's dump of Clusters as `kubectl get clusters -o yaml` (one List) or
// `-o json` prints it, or as `---` documents: `node web/bench/dump.mjs N list|documents|json`.
// Each Cluster is about 600 bytes of YAML, as a real one with conditions, API enablements and
// a resource summary. Used by the objects benchmark (web/benches/objects.rs) and the package's
// tests of the limits.
export function cluster(i) {
  return {
    apiVersion: "cluster.karmada.io/v1alpha1",
    kind: "Cluster",
    metadata: {
      name: `member${i}`,
      uid: `3b6f0d9e-${i}`,
      resourceVersion: String(81234 + i),
      creationTimestamp: "2026-10-02T08:00:00Z",
      labels: { env: i % 3 ? "prod" : "staging", region: `r${i % 7}` },
    },
    spec: {
      apiEndpoint: `https://member${i}.example.com:6443`,
      syncMode: "Push",
      provider: "aws",
      region: `r${i % 7}`,
      zones: [`r${i % 7}a`],
    },
    status: {
      kubernetesVersion: "v1.31.2",
      conditions: [
        { type: "Ready", status: "True", reason: "ClusterReady", lastTransitionTime: "2026-11-20T10:00:00Z" },
      ],
      apiEnablements: [
        { groupVersion: "v1", resources: [{ name: "pods", kind: "Pod" }] },
        { groupVersion: "apps/v1", resources: [{ name: "deployments", kind: "Deployment" }] },
      ],
      resourceSummary: {
        allocatable: { cpu: "16", memory: "64Gi", pods: "330" },
        allocated: { cpu: `${(i % 12) + 1}500m`, memory: "20Gi", pods: "40" },
      },
    },
  };
}

// Block-style YAML as kubectl prints it (this generator's values need no quoting but the
// numeric-looking strings, which are quoted).
function yaml(value, indent = "") {
  const scalar = (v) => (typeof v === "string" && /^[0-9.]+$|^True$/.test(v) ? JSON.stringify(v) : String(v));
  const out = [];
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) {
      out.push(`${indent}${k}:`);
      for (const item of v) {
        if (typeof item !== "object") { out.push(`${indent}- ${scalar(item)}`); continue; }
        const body = yaml(item, indent + "  ").split("\n");
        body[0] = `${indent}- ${body[0].slice(indent.length + 2)}`;
        out.push(body.join("\n"));
      }
    } else if (typeof v === "object") {
      out.push(`${indent}${k}:`, yaml(v, indent + "  "));
    } else out.push(`${indent}${k}: ${scalar(v)}`);
  }
  return out.join("\n");
}

export function dump(n, shape) {
  const clusters = Array.from({ length: n }, (_, i) => cluster(i));
  if (shape === "json") return JSON.stringify({ apiVersion: "v1", kind: "List", items: clusters }, null, 4) + "\n";
  if (shape === "documents") return clusters.map((c) => `---\n${yaml(c)}\n`).join("");
  return `apiVersion: v1\nkind: List\nitems:\n${clusters.map((c) => {
    const body = yaml(c, "  ").split("\n");
    body[0] = `- ${body[0].slice(2)}`;
    return body.join("\n");
  }).join("\n")}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, shape] = process.argv.slice(2);
  process.stdout.write(dump(Number(n), shape ?? "list"));
}
