// Generated from allot.schema.json by web/scripts/types.mjs; do not edit.
// The scenario format v1 (docs/scenario.md) and every answer, as the Rust types declare them.

/**
 * A Karmada release: 1.MINOR or 1.MINOR.PATCH (a leading v is accepted).
 */
export type KarmadaVersion = string;
/**
 * A Kubernetes quantity: a number, or a string such as `"500m"`, `"1.5"`, `"16Gi"`, `"1e3"`.
 */
export type Quantity = number | string;
/**
 * A taint's effect.
 */
export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";
/**
 * A pod's phase.
 */
export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";
/**
 * A toleration operator. `Lt` and `Gt` are accepted but never tolerate (as Karmada).
 */
export type TolerationOperator = "Equal" | "Exists" | "Lt" | "Gt";
/**
 * The division method.
 */
export type Method = "webster" | "remainder" | "name-order";
/**
 * Which Karmada estimator.
 */
export type Estimator = "general" | "accurate";
/**
 * Which model estimate to run.
 */
export type ModelMethod = "simulator" | "gradeFormula";
/**
 * A topology field clusters can be spread over (`spreadByField`).
 */
export type SpreadField = "cluster" | "region" | "zone" | "provider";
/**
 * Karmada's feature gates: "Failover=true,GracefulEviction=false" as --feature-gates reads them, or {"Failover": true}; an unset gate takes the release's default.
 */
export type FeatureGates =
  | string
  | {
      Failover?: boolean;
      GracefulEviction?: boolean;
      PropagateDeps?: boolean;
      CustomizedClusterResourceModeling?: boolean;
      PolicyPreemption?: boolean;
      MultiClusterService?: boolean;
      ResourceQuotaEstimate?: boolean;
      StatefulFailoverInjection?: boolean;
      PriorityBasedScheduling?: boolean;
      FederatedQuotaEnforcement?: boolean;
      LoggingAlphaOptions?: boolean;
      LoggingBetaOptions?: boolean;
      ContextualLogging?: boolean;
      MultiplePodTemplatesScheduling?: boolean;
      ControllerPriorityQueue?: boolean;
      WorkloadAffinity?: boolean;
      SchedulingOvercommitProtection?: boolean;
    };
/**
 * What [`super::schedule`] returns: `kind` says which family.
 */
export type Outcome =
  | (KarmadaOutcome & {
      kind: "karmada";
    })
  | (EruOutcome & {
      kind: "eru";
    });
/**
 * Where a cluster's figure came from.
 */
export type Source =
  | {
      kind: "estimator";
      estimator: EstimatorName;
    }
  | {
      kind: "requested";
    }
  | {
      kind: "notAsked";
    };
/**
 * Which estimator answered: `given` (the cluster's stated `availableReplicas`), `general` or
 * `accurate`. The schema's type of the field; the core keeps the name as text.
 */
export type EstimatorName = "given" | "general" | "accurate";
/**
 * What decided the answer.
 */
export type Limit =
  | {
      kind: "noSummary";
    }
  | {
      kind: "noPodSlots";
    }
  | {
      kind: "podSlots";
    }
  | {
      kind: "resource";
      resource: string;
    }
  | {
      kind: "models";
    }
  | {
      kind: "missing";
      resource: string;
    };
/**
 * A plugin's result code.
 */
export type Code = ("Success" | "Unschedulable" | "Error") | "Nooperation";
/**
 * One node in an estimate's trace.
 */
export type NodeVerdict = {
  /**
   * Index into the state's nodes.
   */
  node: number;
} & NodeVerdict1;
export type NodeVerdict1 =
  | {
      kind: "filtered";
      reason: Mismatch;
    }
  | {
      kind: "fits";
      replicas: number;
      limit: string;
    };
/**
 * Why a node does not satisfy a claim.
 */
export type Mismatch =
  | {
      kind: "nodeSelector";
      key: string;
      value: string;
    }
  | {
      kind: "nodeAffinity";
    }
  | {
      kind: "unschedulable";
    }
  | {
      kind: "taint";
      key: string;
      effect: TaintEffect;
    };
/**
 * Why a pod holds nothing.
 */
export type PodIgnored = "unbound" | "unknownNode" | "finished";
/**
 * Which path of the dynamic strategies ran (docs/rules/karmada.md §4).
 */
export type Mode = "fresh" | "scaleUp" | "scaleDown" | "unchanged";
/**
 * Why a cluster got nothing.
 */
export type DropReason = "noMatchingRule" | "noLongerCandidate" | "aggregatedCut" | "zeroReplicas";
/**
 * Why a cluster comes before the next one in the remainder order.
 */
export type OrderReason = "weight" | "previous_replicas" | "random" | "name" | "last";
/**
 * A plugin's verdict.
 */
export type PluginVerdict = {
  plugin: Plugin;
} & PluginVerdict1;
/**
 * An in-tree plugin of a single binding's schedule (the WorkloadAffinity pair reads other
 * bindings: only a fleet runs it).
 */
export type Plugin =
  | "APIEnablement"
  | "TaintToleration"
  | "ClusterAffinity"
  | "SpreadConstraint"
  | "ClusterEviction"
  | "ClusterLocality";
export type PluginVerdict1 =
  | {
      status: "passed";
    }
  | {
      status: "unschedulable";
      reason: string;
    }
  | {
      status: "disabled";
    }
  | {
      status: "notEvaluated";
    };
/**
 * Which way selection went.
 */
export type SelectPath = "all" | "cluster" | "region";
/**
 * The stable machine-readable code of an error.
 */
export type ErrorCode =
  | "negative"
  | "too_large"
  | "duplicate_name"
  | "empty_name"
  | "no_candidates"
  | "invalid_selector"
  | "unschedulable"
  | "unknown_value"
  | "missing"
  | "invalid_quantity"
  | "invalid_model"
  | "insufficient_resource"
  | "insufficient_capacity"
  | "already_filled"
  | "invalid_count"
  | "invalid_strategy"
  | "invalid_cpu"
  | "invalid_memory"
  | "invalid_storage"
  | "invalid_volume"
  | "invalid_usage"
  | "no_cluster_fit"
  | "spread_unsatisfiable"
  | "refused_at_admission"
  | "invalid_input"
  | "unsupported_version";
/**
 * New instances a node can take: a count or `"unlimited"`.
 */
export type Capacity = number | "unlimited";
/**
 * A strategy.
 */
export type EruStrategy = "AUTO" | "FILL" | "EACH" | "GLOBAL" | "DRAINED";
/**
 * The unit a resource's integers count.
 */
export type Unit = "milli" | "base";
/**
 * What settled the choice.
 */
export type Decided =
  | "alone"
  | "namespaced"
  | "priority"
  | "match"
  | "nameOrder"
  | "claimed"
  | "preemption"
  | "named"
  | "onlyGiven";

/**
 * A whole problem.
 */
export interface Scenario {
  /**
   * Always 1 for this format.
   */
  version: 1;
  karmada?: KarmadaVersion;
  /**
   * A title, for people (the playground shows it).
   */
  title?: string;
  /**
   * A longer description, for people.
   */
  description?: string;
  /**
   * Karmada member clusters (candidates, in candidate order).
   */
  clusters?: Cluster[] | null;
  /**
   * eru nodes.
   */
  nodes?: EruNode[] | null;
  workload?: Workload;
  policy?: Policy;
  /**
   * Karmada: the previous result (`spec.clusters`), cluster name -> replicas. eru nodes
   * carry their instances in `nodes[i].count`.
   */
  previous?: {
    [k: string]: number;
  };
  /**
   * Seed of every random choice; absent: the caller draws one and reports it.
   */
  seed?: number | null;
  /**
   * The ResourceBinding UID (Webster's name tie direction).
   */
  uid?: string;
  /**
   * Karmada: the affinity term the binding last scheduled with
   * (`status.schedulerObservingAffinityName`); scheduling starts from it.
   */
  observedAffinity?: string;
  /**
   * Karmada: clusters the binding is being gracefully evicted from
   * (`spec.gracefulEvictionTasks[].fromCluster`).
   */
  gracefulEvictions?: string[];
}
/**
 * A Karmada member cluster with whatever its estimators look at.
 */
export interface Cluster {
  name: string;
  labels?: {
    [k: string]: string;
  };
  provider?: string;
  region?: string;
  zones?: string[];
  /**
   * Shorthand static weight: the cluster's own rule. Either every weighted cluster says it
   * here or `policy.staticWeights` lists rules, not both.
   */
  weight?: number | null;
  /**
   * Overflow tier (lower first), used when `policy.overflow` is on.
   */
  overflowOrder?: number;
  /**
   * Replicas the cluster can take, as stated (an estimator answer named `given`).
   */
  availableReplicas?: number | null;
  /**
   * `status.resourceSummary`: the general estimator's input.
   */
  resourceSummary?: ResourceSummary | null;
  /**
   * `spec.resourceModels`: grades for the summary's `allocatableModelings`.
   */
  resourceModels?: ResourceModel[];
  /**
   * Nodes: the accurate estimator's input.
   */
  nodes?: Node[] | null;
  /**
   * Pods bound to those nodes.
   */
  pods?: Pod[];
  /**
   * ResourceQuotas of the workload's namespace (the accurate estimator's quota plugin).
   */
  resourceQuotas?: ResourceQuota[];
  /**
   * Workloads scheduled here but not yet running (SchedulingOvercommitProtection).
   */
  assumed?: AssumedWorkload[];
  /**
   * `spec.taints`: `NoSchedule` and `NoExecute` taints keep new placements out unless the
   * policy tolerates them.
   */
  taints?: Taint[];
  /**
   * `status.apiEnablements`: the APIs the cluster serves (read when the workload states its
   * `apiVersion` and `kind`).
   */
  apiEnablements?: ApiEnablement[];
  /**
   * The `CompleteAPIEnablements` condition: `true` when `apiEnablements` is the complete
   * list; absent when the cluster does not say.
   */
  completeApiEnablements?: boolean | null;
  /**
   * Being deleted (`metadata.deletionTimestamp` set): never a candidate.
   */
  deleting?: boolean;
}
/**
 * A cluster's `status.resourceSummary`.
 */
export interface ResourceSummary {
  allocatable?: ResourceList;
  allocated?: ResourceList;
  allocating?: ResourceList;
  /**
   * Nodes per grade of the cluster's resource models.
   */
  allocatableModelings?: AllocatableModeling[];
}
/**
 * Resource name (`cpu`, `memory`, `pods`, `nvidia.com/gpu`, ...) to quantity.
 */
export interface ResourceList {
  [k: string]: Quantity;
}
/**
 * How many nodes of a cluster are in a grade (`status.resourceSummary.allocatableModelings`).
 */
export interface AllocatableModeling {
  grade: number;
  count: number;
}
/**
 * A grade: the ranges of each resource a node's free amount falls into.
 */
export interface ResourceModel {
  grade: number;
  ranges: ModelRange[];
}
/**
 * One resource's range of a grade: `min` inclusive, `max` exclusive, in the resource's quantities.
 */
export interface ModelRange {
  name: string;
  min: Quantity;
  max: Quantity;
}
/**
 * A member cluster's node.
 */
export interface Node {
  name: string;
  labels?: {
    [k: string]: string;
  };
  taints?: Taint[];
  unschedulable?: boolean;
  allocatable?: ResourceList;
}
/**
 * A node taint.
 */
export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
}
/**
 * A pod. `requests` is a shorthand for one container's requests.
 */
export interface Pod {
  name?: string;
  /**
   * The node it is bound to; unbound pods take nothing.
   */
  nodeName?: string | null;
  phase?: PodPhase;
  requests?: ResourceList;
  containers?: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
}
/**
 * A container's requests.
 */
export interface Container {
  requests?: ResourceList;
}
/**
 * A namespace's ResourceQuota: `hard` limits, `used` amounts, scopes.
 */
export interface ResourceQuota {
  name?: string;
  hard?: ResourceList;
  used?: ResourceList;
  scopes?: string[];
  scopeSelector?: ScopeRequirement[];
}
/**
 * A scope selector expression (`scopeName`, `operator`, `values`).
 */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}
/**
 * A workload scheduled but not yet running (SchedulingOvercommitProtection deducts it).
 */
export interface AssumedWorkload {
  namespace?: string;
  components?: Component[];
}
/**
 * One component of a workload: `replicas` pods each requesting `requests`, on nodes that
 * satisfy `nodeClaim`.
 */
export interface Component {
  name?: string;
  replicas: number;
  requests?: ResourceList;
  nodeClaim?: NodeClaim | null;
}
/**
 * What a workload asks of a node.
 */
export interface NodeClaim {
  nodeSelector?: {
    [k: string]: string;
  };
  hardNodeAffinity?: NodeSelector | null;
  tolerations?: Toleration[];
}
/**
 * `requiredDuringSchedulingIgnoredDuringExecution`: the OR of its terms.
 */
export interface NodeSelector {
  nodeSelectorTerms?: NodeSelectorTerm[];
}
/**
 * One node selector term: the AND of its expressions. An empty term matches nothing.
 */
export interface NodeSelectorTerm {
  matchExpressions?: Requirement[];
  /**
   * Requirements on the node's fields; Kubernetes knows one, `metadata.name`.
   */
  matchFields?: Requirement[];
}
/**
 * One `{key, operator, values}` requirement as it arrives (operator still a string, so an
 * unknown operator is a typed error or a non-match instead of a parse failure).
 */
export interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}
/**
 * A pod toleration. Empty key with `Exists` tolerates every taint; no effect means any effect.
 */
export interface Toleration {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect | null;
}
/**
 * A group-version a cluster serves and the kinds it serves there (`status.apiEnablements`).
 */
export interface ApiEnablement {
  /**
   * `apps/v1`, or `v1` for the core group.
   */
  groupVersion?: string;
  kinds?: string[];
}
/**
 * A node with everything eru's plugins look at.
 */
export interface EruNode {
  name: string;
  cpuMap?: {
    [k: string]: number;
  };
  memory?: Quantity;
  numa?: {
    [k: string]: string;
  };
  numaMemory?: {
    [k: string]: Quantity;
  };
  usage?: CpuMemUsage;
  storage?: Quantity;
  usageStorage?: Quantity;
  volumes?: {
    [k: string]: Quantity;
  };
  usageVolumes?: {
    [k: string]: Quantity;
  };
  disks?: Disk[];
  usageDisks?: {
    [k: string]: Io;
  };
  /**
   * GPU cards by product (`nvidia-3090` -> 4).
   */
  gpus?: {
    [k: string]: number;
  };
  /**
   * GPU cards the node's workloads hold, by product.
   */
  usageGpus?: {
    [k: string]: number;
  };
  /**
   * Instances of the app already on the node.
   */
  count?: number;
  /**
   * The app's current CPU binding on this node, when reallocating.
   */
  originCpuMap?: {
    [k: string]: number;
  } | null;
}
/**
 * What is in use on a node.
 */
export interface CpuMemUsage {
  cpuMap?: {
    [k: string]: number;
  };
  memory?: Quantity;
  numaMemory?: {
    [k: string]: Quantity;
  };
}
/**
 * A disk with its mount points and IO capacity.
 */
export interface Disk {
  device: string;
  mounts?: string[];
  readIops?: number;
  writeIops?: number;
  readBps?: number;
  writeBps?: number;
}
/**
 * Read and write IOPS and bytes per second.
 */
export interface Io {
  readIops?: number;
  writeIops?: number;
  readBps?: number;
  writeBps?: number;
}
/**
 * What is scheduled. Karmada uses `replicas`, `requests`, `nodeClaim`, `components` and
 * `priorityClass`; eru uses `count`, `requests` (`cpu`, `memory`, `storage`), `limits`
 * (`cpu`, `memory`), `cpuBind`, `volumes` and `gpus`.
 */
export interface Workload {
  /**
   * Karmada: `spec.replicas`.
   */
  replicas?: number | null;
  /**
   * eru: new instances to deploy.
   */
  count?: number | null;
  /**
   * Per replica (instance). Karmada: absent means the workload declares no requirements.
   */
  requests?: ResourceList | null;
  limits?: ResourceList;
  /**
   * Karmada: the pods' node selector, required node affinity and tolerations.
   */
  nodeClaim?: NodeClaim | null;
  /**
   * Karmada: a multi-component workload; estimators count complete sets.
   */
  components?: Component[];
  /**
   * Karmada: the pods' PriorityClass (quota scopes).
   */
  priorityClass?: string | null;
  /**
   * eru: bind CPUs (full and fragment cores).
   */
  cpuBind?: boolean;
  /**
   * eru: volume bindings `src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]`.
   */
  volumes?: string[];
  /**
   * eru: GPU cards by product model, per instance (`nvidia-3090` -> 2).
   */
  gpus?: {
    [k: string]: number;
  };
  /**
   * Karmada: the resource's `apiVersion` (`apps/v1`), for the APIEnablement filter.
   */
  apiVersion?: string | null;
  /**
   * Karmada: the resource's `kind` (`Deployment`).
   */
  kind?: string | null;
}
/**
 * How it is scheduled.
 */
export interface Policy {
  /**
   * Karmada: `duplicated`, `staticWeight` (default), `dynamicWeight`, `aggregated`.
   * eru: `AUTO` (default), `FILL`, `EACH`, `GLOBAL`, `DRAINED`.
   */
  strategy?:
    | "duplicated"
    | "staticWeight"
    | "dynamicWeight"
    | "aggregated"
    | "AUTO"
    | "FILL"
    | "EACH"
    | "GLOBAL"
    | "DRAINED"
    | null;
  /**
   * Karmada: the division method; absent: the release's (`karmada`).
   */
  method?: Method | null;
  /**
   * Karmada: static weight rules; absent (and no cluster `weight`) means every cluster
   * weighs 1.
   */
  staticWeights?: StaticWeightRule[] | null;
  /**
   * Karmada: the estimators to run; absent: each whose input a cluster has.
   */
  estimators?: Estimator[] | null;
  /**
   * Karmada: how resource models are read; absent: the release's (`karmada`).
   */
  modelMethod?: ModelMethod | null;
  gates?: GateSettings;
  /**
   * Karmada: a reschedule was triggered: divide afresh, ignoring placements.
   */
  fresh?: boolean;
  /**
   * Karmada: fill clusters tier by tier of `overflowOrder`.
   */
  overflow?: boolean;
  /**
   * Karmada: `placement.clusterAffinity`; only clusters it matches are candidates.
   */
  clusterAffinity?: ClusterAffinity | null;
  /**
   * Karmada: `placement.clusterAffinities`, ordered terms tried in turn (with overflow
   * tiers).
   */
  clusterAffinities?: AffinityTerm[] | null;
  /**
   * Karmada: `placement.clusterTolerations`, for cluster taints.
   */
  clusterTolerations?: Toleration[];
  /**
   * Karmada: `placement.spreadConstraints`.
   */
  spreadConstraints?: SpreadConstraint[];
  /**
   * Karmada: the scheduler's `--plugins` entries (`*`, a name, `-name`); absent: `*`.
   */
  plugins?: string[] | null;
  /**
   * eru: `NodesLimit` (0: none).
   */
  nodesLimit?: number;
  cpumem?: CpuMemConfig;
  /**
   * eru: the storage plugin's cap on instances per node.
   */
  maxDeployCount?: number | null;
}
/**
 * `{targetCluster, weight}`: clusters the affinity selects get this weight (the maximum over
 * every rule that selects them).
 */
export interface StaticWeightRule {
  targetCluster: ClusterAffinity;
  weight: number;
}
/**
 * A ClusterAffinity. Empty matches every cluster.
 */
export interface ClusterAffinity {
  clusterNames?: string[];
  exclude?: string[];
  labelSelector?: LabelSelector | null;
  fieldSelector?: FieldSelector | null;
}
/**
 * `matchLabels` and `matchExpressions`, ANDed. An empty selector matches everything.
 */
export interface LabelSelector {
  matchLabels?: {
    [k: string]: string;
  };
  matchExpressions?: Requirement[];
}
/**
 * `fieldSelector`: requirements on `provider`, `region` and `zone`.
 */
export interface FieldSelector {
  matchExpressions?: Requirement[];
}
/**
 * The feature gates a scenario sets (`policy.gates`); an unset gate takes the release's
 * default (docs/rules/versions.md "Feature gates").
 */
export interface GateSettings {
  /**
   * SchedulingOvercommitProtection: deduct assumed workloads (off by default; from 1.18).
   */
  schedulingOvercommitProtection?: boolean | null;
  /**
   * CustomizedClusterResourceModeling: use resource models when a summary has grade
   * counts (on by default; from 1.4).
   */
  customizedClusterResourceModeling?: boolean | null;
  /**
   * MultiplePodTemplatesScheduling: a multi-component workload spread by one cluster is
   * selected for one complete set (off by default; from 1.15).
   */
  multiplePodTemplatesScheduling?: boolean | null;
}
/**
 * One of `clusterAffinities`: tried in order, the first that schedules wins (§15.3); its
 * `overflowAffinities` are further tiers filled after the inline affinity (§0 step 4).
 */
export interface AffinityTerm {
  affinityName?: string;
  affinity?: ClusterAffinity;
  overflowAffinities?: NamedAffinity[];
}
/**
 * An affinity with a name (an overflow tier of a term).
 */
export interface NamedAffinity {
  affinityName?: string;
  affinity?: ClusterAffinity;
}
/**
 * One `spreadConstraints` entry. With neither `spreadByField` nor `spreadByLabel` it spreads by
 * cluster (the policy webhook's default); `minGroups: 0` means 1, as the webhook defaults it;
 * `maxGroups` has no default (0).
 */
export interface SpreadConstraint {
  spreadByField?: SpreadField | null;
  /**
   * Spreading by a label: accepted, but Karmada's selection cannot schedule it (§14.4).
   */
  spreadByLabel?: string;
  minGroups?: number;
  maxGroups?: number;
}
/**
 * Plugin configuration.
 */
export interface CpuMemConfig {
  /**
   * Pieces per core (default 100).
   */
  shareBase?: number;
  /**
   * At most this many fragment cores per plan; -1: no limit.
   */
  maxShare?: number;
}
/**
 * A Karmada schedule: estimates, then the division.
 */
export interface KarmadaOutcome {
  version: 1;
  /**
   * Replicas per cluster, candidate order, zero entries dropped.
   */
  assignment: Assigned[];
  targets: TargetEstimate[];
  /**
   * The seed in effect (the scenario's, else the caller's draw).
   */
  seed: number;
  /**
   * The scenario had no seed: `seed` was drawn by the caller.
   */
  seedDrawn: boolean;
  /**
   * Whether a random choice decided anything (only then does the seed matter).
   */
  randomDecided: boolean;
  trace: Trace;
  pipeline: PipelineReport;
  warnings: Warning[];
}
/**
 * Replicas for one cluster.
 */
export interface Assigned {
  name: string;
  replicas: number;
}
/**
 * One cluster's estimates and their combination.
 */
export interface TargetEstimate {
  name: string;
  /**
   * The combined figure the division uses (the requested replicas when nobody answered);
   * negative where Karmada's figure is (docs/rules/versions.md "Resource models").
   */
  availableReplicas: number;
  source: Source;
  /**
   * `availableReplicas` as the scenario stated it.
   */
  given: number | null;
  general: GeneralEstimate | null;
  accurate: AccurateAnswer | null;
}
/**
 * The general estimator's answer for one cluster.
 */
export interface GeneralEstimate {
  /**
   * Replicas (or sets) the cluster can take, at most MaxInt32; negative only where
   * Karmada's grade formula wraps (docs/rules/versions.md "Resource models").
   */
  replicas: number;
  /**
   * `allocatable.pods − allocated.pods − allocating.pods` (may be negative).
   */
  allowedPods: number;
  limit: Limit;
  /**
   * Per resource, when the summary bound ran.
   */
  resources: ResourceBound[];
  /**
   * When the models ran.
   */
  model: ModelEstimate | null;
  /**
   * Sentences: `pods: 110 - 11 = 99`, `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`, ...
   */
  explanation: string[];
}
/**
 * One resource's bound: `free / request`.
 */
export interface ResourceBound {
  resource: string;
  allocatable: number;
  allocated: number;
  allocating: number;
  /**
   * Per replica (or per set).
   */
  request: number;
  bound: number;
  /**
   * `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`.
   */
  formula: string;
}
/**
 * A model estimate and how it was reached.
 */
export interface ModelEstimate {
  method: ModelMethod;
  /**
   * Negative only where Karmada's grade formula wraps (docs/rules/versions.md "Resource
   * models").
   */
  replicas: number;
  grades: GradeFit[];
  /**
   * `1 × min(2/3, 16Gi/20Gi) + 6 × min(4/3, 32Gi/20Gi) = 6`.
   */
  formula: string;
}
/**
 * One grade's part of a model estimate.
 */
export interface GradeFit {
  grade: number;
  /**
   * Nodes in the grade.
   */
  count: number;
  /**
   * Replicas one node of the grade takes (for one-replica requests).
   */
  perNode: number;
  /**
   * Whether the grade was used (the legacy formula drops grades below the first that
   * surely fits).
   */
  used: boolean;
  /**
   * `min(4/3, 32Gi/20Gi)`.
   */
  formula: string;
}
/**
 * The accurate estimator's answer for a cluster: the node plugin, the quota plugin, and what
 * the estimator server returns after merging them.
 */
export interface AccurateAnswer {
  /**
   * `None`: the server's answer is an error (no answer).
   */
  replicas: number | null;
  nodes: AccurateEstimate;
  /**
   * Present when the cluster lists resource quotas.
   */
  quota: PluginResult | null;
  /**
   * The cluster's pods that hold nothing on its nodes (unbound, on a node it does not list,
   * finished), and why.
   */
  ignoredPods: IgnoredPod[];
}
/**
 * The accurate estimate for a cluster.
 */
export interface AccurateEstimate {
  /**
   * Σ per-node replicas, at most MaxInt32.
   */
  replicas: number;
  code: Code;
  nodes: NodeVerdict[];
}
/**
 * One plugin's answer.
 */
export interface PluginResult {
  replicas: number;
  code: Code;
}
/**
 * A pod the estimate leaves out (docs/rules/karmada.md §10).
 */
export interface IgnoredPod {
  /**
   * Index into the cluster's pods.
   */
  pod: number;
  reason: PodIgnored;
}
/**
 * How an assignment came about.
 */
export interface Trace {
  mode: Mode | null;
  weights: WeightTrace[];
  dropped: Dropped[];
  tiers: TierTrace[];
  divisions: DivisionTrace[];
  /**
   * The same, in plain sentences.
   */
  explanation: string[];
}
/**
 * A cluster's weight after rule matching and the rules (indices) that matched it.
 */
export interface WeightTrace {
  cluster: string;
  weight: number;
  rules: number[];
}
/**
 * A cluster left out, and why.
 */
export interface Dropped {
  cluster: string;
  reason: DropReason;
}
/**
 * One overflow tier.
 */
export interface TierTrace {
  order: number;
  clusters: string[];
  /**
   * Replicas this tier can hold (Σ available + previous).
   */
  capacity: number;
  /**
   * Replicas it was asked to take.
   */
  replicas: number;
}
/**
 * How one division went.
 */
export interface DivisionTrace {
  method: Method;
  target: number;
  totalWeight: number;
  entries: EntryTrace[];
  /**
   * `target − Σ floor shares`.
   */
  remainder: number;
  /**
   * The remainder order (floor-plus-remainder methods; empty for Webster).
   */
  order: OrderStep[];
  /**
   * Whether the seeded random order decided who got a remainder replica.
   */
  randomDecided: boolean;
}
/**
 * One cluster's part of a division, for the explanation.
 */
export interface EntryTrace {
  cluster: string;
  weight: number;
  /**
   * `floor(weight · target / Σweight)`.
   */
  floorShare: number;
  /**
   * The fractional part of the exact share, in thousandths (for display).
   */
  fractionMilli: number;
  /**
   * New replicas from this division.
   */
  added: number;
  /**
   * Replicas held before (kept).
   */
  initial: number;
  /**
   * Whether a remainder replica went here (floor-plus-remainder methods).
   */
  gotRemainder: boolean;
}
/**
 * A step of the remainder order and why the cluster comes before the next.
 */
export interface OrderStep {
  cluster: string;
  reason: OrderReason;
}
/**
 * The steps before the division, for the attempt that decided.
 */
export interface PipelineReport {
  /**
   * Every listed cluster, in listed order.
   */
  clusters: ClusterStep[];
  /**
   * The feasible clusters in the global order G.
   */
  order: string[];
  selection: SelectionReport | null;
  /**
   * Each affinity term tried, in order (empty without `clusterAffinities`).
   */
  terms: TermReport[];
  /**
   * The observed affinity term afterwards (`status.schedulerObservingAffinityName`).
   */
  observedAffinity: string;
  /**
   * Whether the candidates are taken in the global order. `false`: the scenario uses none
   * of the scheduler's fields, so its clusters are the candidates in the listed order.
   */
  ordered: boolean;
  /**
   * What stopped scheduling (`filter` and `select` report it here instead of failing).
   */
  error: Problem | null;
  explanation: string[];
}
/**
 * One cluster through the steps before the division.
 */
export interface ClusterStep {
  cluster: string;
  /**
   * Being deleted: skipped before any plugin, and not part of the diagnosis.
   */
  deleting: boolean;
  /**
   * Every filter plugin in run order.
   *
   * @minItems 5
   * @maxItems 5
   */
  verdicts: [PluginVerdict, PluginVerdict, PluginVerdict, PluginVerdict, PluginVerdict];
  /**
   * The reason Karmada records: the first failure in run order.
   */
  reason: string | null;
  feasible: boolean;
  /**
   * The score plugins (feasible clusters only).
   */
  scores: Scores | null;
  /**
   * `avail = alloc + prev`, what selection compares (feasible clusters only).
   */
  availableReplicas: number | null;
  /**
   * The overflow tier (feasible clusters only).
   */
  overflowOrder: number | null;
  /**
   * Position in the global order G, from 0 (feasible clusters only).
   */
  position: number | null;
  /**
   * Kept by selection: a candidate of the division.
   */
  selected: boolean;
}
/**
 * One cluster's scores.
 */
export interface Scores {
  /**
   * `None`: the plugin is disabled.
   */
  clusterLocality: number | null;
  clusterAffinity: number | null;
  total: number;
}
/**
 * What selection did.
 */
export interface SelectionReport {
  path: SelectPath;
  /**
   * The candidates, in candidate order.
   */
  candidates: string[];
  swaps: Swap[];
  regions: RegionTrace[];
  /**
   * Clusters added on the region path beyond one per region.
   */
  spares: string[];
}
/**
 * A swap of the cluster path: `removed` left the selection for `added`, which has more
 * available replicas.
 */
export interface Swap {
  removed: string;
  added: string;
}
/**
 * A region group of the region path.
 */
export interface RegionTrace {
  name: string;
  /**
   * Its group score (14.3).
   */
  score: number;
  /**
   * Its clusters, best first.
   */
  clusters: string[];
  chosen: boolean;
}
/**
 * One affinity term tried.
 */
export interface TermReport {
  affinityName: string;
  /**
   * Why it did not schedule; absent: it did.
   */
  error: Problem | null;
}
/**
 * An error: its stable code, where the offending value sits, and a message a user can act on.
 */
export interface Problem {
  code: ErrorCode;
  /**
   * Where the value sits in the input, written `clusters[2].weight`.
   */
  path: string;
  message: string;
}
/**
 * Something worth knowing about an answer that is not an error.
 */
export interface Warning {
  /**
   * Stable: `capacity_exceeded`, `estimator_without_input`, `karmada_sum_wraps`,
   * `no_capacity`.
   */
  code: string;
  /**
   * The scenario field it concerns.
   */
  path: string;
  message: string;
}
/**
 * An eru deploy: capacities, the strategy's deploy map, and each new instance's plan.
 */
export interface EruOutcome {
  version: 1;
  /**
   * New instances by node name (FILL's explicit zeros included).
   */
  deploy: {
    [k: string]: number;
  };
  plans: InstancePlan[];
  capacities: NodeCapacity[];
  total: Capacity;
  deployment: Deployment;
  /**
   * eru's strategies draw nothing at random; the seed is reported for symmetry.
   */
  seed: number;
  seedDrawn: boolean;
  warnings: Warning[];
}
/**
 * One new instance's bindings.
 */
export interface InstancePlan {
  node: string;
  cpu: CpuPlan | null;
  volumes: {
    /**
     * @minItems 2
     * @maxItems 2
     */
    [k: string]: [unknown, unknown];
  };
}
/**
 * One instance's CPU binding.
 */
export interface CpuPlan {
  /**
   * The NUMA node the plan lives on; `""` for cross-NUMA or no NUMA.
   */
  numaNode: string;
  cpuMap: {
    [k: string]: number;
  };
}
/**
 * One node's capacity and why.
 */
export interface NodeCapacity {
  name: string;
  capacity: Capacity;
  usage: number;
  rate: number;
  /**
   * The resource that bound the capacity (`cpumem`, `storage` or `gpu`), if any did.
   */
  boundBy: string | null;
  /**
   * One sentence per plugin.
   */
  explanation: string[];
}
/**
 * What a strategy decided.
 */
export interface Deployment {
  strategy: EruStrategy;
  /**
   * New instances per input node; `None`: not in the deploy map. FILL lists selected
   * nodes that are already full with `Some(0)`, as eru does.
   */
  instances: (number | null)[];
  /**
   * Why, in sentences.
   */
  explanation: string[];
}
/**
 * The estimator stage alone.
 */
export interface Estimates {
  version: 1;
  targets: TargetEstimate[];
  warnings: Warning[];
}
/**
 * eru capacities alone.
 */
export interface Capacities {
  version: 1;
  capacities: NodeCapacity[];
  total: Capacity;
  warnings: Warning[];
}
/**
 * A quantity read for a resource, with its exact amount and canonical form (what the
 * package's `parseQuantity` answers).
 */
export interface QuantityValue {
  /**
   * The amount in the resource's unit (millicores for CPU, else base units); exact up to
   * 2^53, the nearest number beyond.
   */
  value: number;
  /**
   * The exact amount as a decimal integer string.
   */
  exact: string;
  unit: Unit;
  /**
   * The canonical quantity string (`"500m"`, `"16Gi"`).
   */
  canonical: string;
}
/**
 * A scenario made from objects, and how.
 */
export interface Imported {
  scenario: Scenario;
  report: ImportReport;
  /**
   * The resource template a binding is for: the template's identity, else the given
   * binding's `spec.resource` (absent when there is neither).
   */
  resource?: ObjectReference | null;
}
/**
 * How the objects were read.
 */
export interface ImportReport {
  /**
   * Which object's field fed which scenario field.
   */
  used: Entry[];
  /**
   * Defaults applied (the policy webhook's, the CRD's).
   */
  defaulted: Entry[];
  /**
   * What was read but does not change the placement, and why.
   */
  ignored: Entry[];
  /**
   * Which policy was used and why, the others and why not (§16.6); absent without a
   * policy.
   */
  policy?: PolicyChoice | null;
}
/**
 * One line of the report: `object` (`Cluster member1`), its `field`, and what became of it
 * (`into`: a scenario field, a default, or the reason it is ignored).
 */
export interface Entry {
  object: string;
  field: string;
  into: string;
}
/**
 * The policy used and why, with every other policy given and why it is not used.
 */
export interface PolicyChoice {
  /**
   * `PropagationPolicy default/nginx` or `ClusterPropagationPolicy all`.
   */
  policy: string;
  decided: Decided;
  /**
   * Why, in Karmada's terms.
   */
  why: string;
  /**
   * The other policies given, in the order given.
   */
  others: NotUsed[];
}
/**
 * A policy not used, and why.
 */
export interface NotUsed {
  policy: string;
  why: string;
}
/**
 * A binding's `spec.resource`: the template it is for.
 */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
}
/**
 * What a set of objects schedules to, and why.
 */
export interface Explained {
  scenario: Scenario;
  report: ImportReport;
  outcome: KarmadaOutcome;
  binding: BindingResult;
  resourceBinding: KubernetesObject;
}
/**
 * The binding's new scheduling result.
 */
export interface BindingResult {
  /**
   * `spec.clusters`, by name.
   */
  clusters: TargetCluster[];
  /**
   * `status.schedulerObservingAffinityName` (empty without ordered affinity terms).
   */
  observedAffinity: string;
  /**
   * Every cluster in the current or the new `spec.clusters`, by name.
   */
  changes: Change[];
}
/**
 * An entry of a binding's `spec.clusters`.
 */
export interface TargetCluster {
  name: string;
  replicas: number;
}
/**
 * One cluster's replicas before and after (`None`: not in that `spec.clusters`).
 */
export interface Change {
  cluster: string;
  before: number | null;
  after: number | null;
}
/**
 * A Kubernetes or Karmada object, as `kubectl get -o json` prints it.
 */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * A scenario as objects.
 */
export interface Exported {
  /**
   * Clusters, the template, the policy and (with binding state) the binding.
   */
  objects: KubernetesObject[];
  /**
   * Each cluster's nodes and pods, as `kubectl get nodes,pods -A` against it prints them.
   */
  members: Member[];
  /**
   * Scenario fields no object holds, and why.
   */
  unexpressed: Entry[];
}
/**
 * One member cluster's own objects.
 */
export interface Member {
  cluster: string;
  objects: KubernetesObject[];
}
/**
 * What a schedule writes into a binding: its new `spec.clusters` with what changes, and the
 * ResourceBinding object.
 */
export interface Written {
  binding: BindingResult;
  resourceBinding: KubernetesObject;
}
