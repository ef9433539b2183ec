// A generated control plane's dump for the fleet view's tests and figures: `clusters` member
// clusters in ten regions, `workloads` Deployments in namespaces of 100, each namespace's
// PropagationPolicy dividing its Deployments by dynamic weight over one region's clusters
// (every other namespace by static weight), and the ResourceBinding of each on three clusters
// of its region.
export function fleetDump({ clusters = 1000, workloads = 10000 } = {}) {
  const items = [];
  const regions = 10;
  const region = (i) => `r${i % regions}`;
  const byRegion = Array.from({ length: regions }, () => []);
  for (let i = 0; i < clusters; i++) {
    const name = `member${i}`;
    byRegion[i % regions].push(name);
    items.push({
      apiVersion: "cluster.karmada.io/v1alpha1",
      kind: "Cluster",
      metadata: { name, labels: { region: region(i) } },
      spec: { syncMode: "Push", region: region(i) },
      status: {
        conditions: [{ type: "Ready", status: "True" }],
        apiEnablements: [{ groupVersion: "apps/v1", resources: [{ name: "deployments", kind: "Deployment" }] }],
        resourceSummary: {
          allocatable: { cpu: String(64 + (i % 4) * 32), memory: "256Gi", pods: "1100" },
          allocated: { cpu: String(i % 16) },
        },
      },
    });
  }
  const namespaces = Math.max(1, Math.ceil(workloads / 100));
  for (let n = 0; n < namespaces; n++) {
    const ns = `team${n}`;
    const weighted = n % 2 === 0
      ? { replicaDivisionPreference: "Weighted", weightPreference: { dynamicWeight: "AvailableReplicas" } }
      : {
          replicaDivisionPreference: "Weighted",
          weightPreference: {
            staticWeightList: byRegion[n % regions].slice(0, 3).map((c, k) => ({ targetCluster: { clusterNames: [c] }, weight: k + 1 })),
          },
        };
    items.push({
      apiVersion: "policy.karmada.io/v1alpha1",
      kind: "PropagationPolicy",
      metadata: { name: `${ns}-all`, namespace: ns },
      spec: {
        resourceSelectors: [{ apiVersion: "apps/v1", kind: "Deployment" }],
        placement: {
          clusterAffinity: { labelSelector: { matchLabels: { region: region(n) } } },
          replicaScheduling: { replicaSchedulingType: "Divided", ...weighted },
        },
      },
    });
  }
  for (let w = 0; w < workloads; w++) {
    const n = w % namespaces;
    const ns = `team${n}`;
    const name = `app${w}`;
    const replicas = 3 + (w % 4);
    items.push({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name, namespace: ns, uid: `uid-${w}` },
      spec: {
        replicas,
        template: { spec: { containers: [{ name: "c", resources: { requests: { cpu: "250m", memory: "512Mi" } } }] } },
      },
    });
    const pool = byRegion[n % regions];
    const at = (k) => pool[(w + k * 7) % pool.length];
    const spread = [at(0), at(1), at(2)].filter((c, k, a) => a.indexOf(c) === k);
    const each = Math.floor(replicas / spread.length);
    const clustersOf = spread.map((c, k) => ({ name: c, replicas: each + (k < replicas % spread.length ? 1 : 0) }));
    items.push({
      apiVersion: "work.karmada.io/v1alpha2",
      kind: "ResourceBinding",
      metadata: { name: `${name}-deployment`, namespace: ns },
      spec: {
        resource: { apiVersion: "apps/v1", kind: "Deployment", namespace: ns, name },
        replicas,
        clusters: clustersOf,
      },
      status: { lastScheduledTime: "2026-11-20T10:00:00Z" },
    });
  }
  return { apiVersion: "v1", kind: "List", items };
}
