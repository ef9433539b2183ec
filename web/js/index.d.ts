// Types of the allot npm package: scenario format v1 in, outcome v1 out (docs/scenario.md).

// ---------------------------------------------------------------------------------------------
// Scenario (input)
// ---------------------------------------------------------------------------------------------

/** A Kubernetes quantity: a number, or a string such as `"500m"`, `"1.5"`, `"16Gi"`, `"1e3"`. */
export type Quantity = number | string;
/** Resource name (`cpu`, `memory`, `pods`, `nvidia.com/gpu`, ...) to quantity. */
export type ResourceList = Record<string, Quantity>;
export type Labels = Record<string, string>;

/** A whole problem: Karmada `clusters` or eru `nodes`, with the workload and the policy. */
export type Scenario = KarmadaScenario | EruScenario;

interface ScenarioBase {
  /** The format version: 1. */
  version: 1;
  title?: string;
  description?: string;
  workload?: Workload;
  policy?: Policy;
  /** Seed of every random choice (an integer up to 2^53); absent: one is drawn and reported. */
  seed?: number;
}

export interface KarmadaScenario extends ScenarioBase {
  /** Member clusters, in candidate order. */
  clusters: Cluster[];
  nodes?: never;
  /** The previous result: cluster name to replicas. */
  previous?: Record<string, number>;
  /** The ResourceBinding UID (Webster's name tie direction). */
  uid?: string;
}

export interface EruScenario extends ScenarioBase {
  nodes: EruNode[];
  clusters?: never;
  previous?: never;
  uid?: never;
}

/** A Karmada member cluster with whatever its estimators look at. */
export interface Cluster {
  name: string;
  labels?: Labels;
  provider?: string;
  region?: string;
  zones?: string[];
  /** Shorthand static weight (instead of `policy.staticWeights`). */
  weight?: number;
  /** Overflow tier, lower first (with `policy.overflow`). */
  overflowOrder?: number;
  /** Replicas the cluster can take, as stated (an estimator answer named `given`). */
  availableReplicas?: number;
  /** The general estimator's input. */
  resourceSummary?: ResourceSummary;
  /** Customized resource models; absent: Karmada's 9 default grades. */
  resourceModels?: ResourceModel[];
  /** The accurate estimator's input. */
  nodes?: Node[];
  pods?: Pod[];
  resourceQuotas?: ResourceQuota[];
  /** Workloads scheduled here but not yet running (SchedulingOvercommitProtection). */
  assumed?: AssumedWorkload[];
}

export interface ResourceSummary {
  allocatable?: ResourceList;
  allocated?: ResourceList;
  allocating?: ResourceList;
  /** Nodes per grade of the cluster's resource models. */
  allocatableModelings?: { grade: number; count: number }[];
}

export interface ResourceModel {
  grade: number;
  ranges: { name: string; min: Quantity; max: Quantity }[];
}

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface Node {
  name: string;
  labels?: Labels;
  taints?: { key: string; value?: string; effect: TaintEffect }[];
  unschedulable?: boolean;
  allocatable?: ResourceList;
}

export interface Pod {
  name?: string;
  /** The node it is bound to; unbound pods take nothing. */
  nodeName?: string | null;
  phase?: "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";
  /** Shorthand for one container's requests. */
  requests?: ResourceList;
  containers?: { requests?: ResourceList }[];
  initContainers?: { requests?: ResourceList }[];
  overhead?: ResourceList;
}

export interface ResourceQuota {
  name?: string;
  hard?: ResourceList;
  used?: ResourceList;
  scopes?: string[];
  scopeSelector?: { scopeName: string; operator: string; values?: string[] }[];
}

export interface Component {
  name?: string;
  replicas: number;
  requests?: ResourceList;
  nodeClaim?: NodeClaim;
}

export interface AssumedWorkload {
  namespace?: string;
  components?: Component[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

export interface Toleration {
  key?: string;
  operator?: "Equal" | "Exists";
  value?: string;
  effect?: TaintEffect | null;
}

/** The pods' node selector, required node affinity and tolerations. */
export interface NodeClaim {
  nodeSelector?: Labels;
  hardNodeAffinity?: {
    nodeSelectorTerms: { matchExpressions?: NodeSelectorRequirement[] }[];
  } | null;
  tolerations?: Toleration[];
}

/**
 * What is scheduled. Karmada: `replicas`, `requests`, `nodeClaim`, `components`,
 * `priorityClass`. eru: `count`, `requests` (`cpu`, `memory`, `storage`), `limits` (`cpu`,
 * `memory`), `cpuBind`, `volumes`.
 */
export interface Workload {
  replicas?: number;
  count?: number;
  requests?: ResourceList;
  limits?: ResourceList;
  nodeClaim?: NodeClaim;
  components?: Component[];
  priorityClass?: string;
  cpuBind?: boolean;
  /** eru volume bindings `src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]`. */
  volumes?: string[];
}

export type KarmadaStrategy = "duplicated" | "staticWeight" | "dynamicWeight" | "aggregated";
export type EruStrategy = "AUTO" | "FILL" | "EACH" | "GLOBAL" | "DRAINED";
export type DivisionMethod = "webster" | "remainder" | "name-order";

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface ClusterAffinity {
  clusterNames?: string[];
  exclude?: string[];
  labelSelector?: { matchLabels?: Labels; matchExpressions?: LabelSelectorRequirement[] } | null;
  /** Keys `provider`, `region`, `zone`. */
  fieldSelector?: { matchExpressions?: LabelSelectorRequirement[] } | null;
}

export interface StaticWeightRule {
  targetCluster: ClusterAffinity;
  weight: number;
}

export interface Policy {
  /** Karmada (default `staticWeight`) or eru (default `AUTO`). */
  strategy?: KarmadaStrategy | EruStrategy;
  method?: DivisionMethod;
  staticWeights?: StaticWeightRule[];
  /** Estimators to run; absent: each whose input a cluster has. */
  estimators?: ("general" | "accurate")[];
  modelMethod?: "simulator" | "gradeFormula";
  gates?: { schedulingOvercommitProtection?: boolean; customizedClusterResourceModeling?: boolean };
  /** A reschedule was triggered: divide afresh. */
  fresh?: boolean;
  overflow?: boolean;
  /** eru NodesLimit (0: none). */
  nodesLimit?: number;
  cpumem?: { shareBase?: number; maxShare?: number };
  maxDeployCount?: number;
}

export interface Io {
  readIops?: number;
  writeIops?: number;
  readBps?: number;
  writeBps?: number;
}

/** An eru node. Byte amounts are numbers or quantity strings (`"16Gi"`). */
export interface EruNode {
  name: string;
  /** Core id to pieces (`shareBase` pieces make a core). */
  cpuMap?: Record<string, number>;
  memory?: Quantity;
  /** Core id to NUMA node id. */
  numa?: Record<string, string>;
  numaMemory?: Record<string, Quantity>;
  usage?: { cpuMap?: Record<string, number>; memory?: Quantity; numaMemory?: Record<string, Quantity> };
  storage?: Quantity;
  usageStorage?: Quantity;
  volumes?: Record<string, Quantity>;
  usageVolumes?: Record<string, Quantity>;
  disks?: ({ device: string; mounts?: string[] } & Io)[];
  usageDisks?: Record<string, Io>;
  /** Instances of the app already on the node. */
  count?: number;
  originCpuMap?: Record<string, number> | null;
}

// ---------------------------------------------------------------------------------------------
// Outcome (output)
// ---------------------------------------------------------------------------------------------

export interface Warning {
  code: "capacity_exceeded" | "estimator_without_input" | "no_capacity";
  path: string;
  message: string;
}

export interface Assigned {
  name: string;
  replicas: number;
}

export interface EntryTrace {
  cluster: string;
  weight: number;
  floorShare: number;
  /** The fractional part of the exact share, in thousandths. */
  fractionMilli: number;
  added: number;
  initial: number;
  gotRemainder: boolean;
}

export interface DivisionTrace {
  method: DivisionMethod;
  target: number;
  totalWeight: number;
  entries: EntryTrace[];
  remainder: number;
  order: { cluster: string; reason: "weight" | "previous_replicas" | "random" | "name" | "last" }[];
  randomDecided: boolean;
}

export interface Trace {
  mode: "fresh" | "scaleUp" | "scaleDown" | "unchanged" | null;
  weights: { cluster: string; weight: number; rules: number[] }[];
  dropped: {
    cluster: string;
    reason: "noMatchingRule" | "noLongerCandidate" | "aggregatedCut" | "zeroReplicas";
  }[];
  tiers: { order: number; clusters: string[]; capacity: number; replicas: number }[];
  divisions: DivisionTrace[];
  /** The same, in sentences. */
  explanation: string[];
}

export interface ResourceBound {
  resource: string;
  allocatable: number;
  allocated: number;
  allocating: number;
  request: number;
  bound: number;
  /** `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`. */
  formula: string;
}

export type Limit =
  | { kind: "noSummary" }
  | { kind: "noPodSlots" }
  | { kind: "podSlots" }
  | { kind: "resource"; resource: string }
  | { kind: "models" }
  | { kind: "missing"; resource: string };

export interface ModelEstimate {
  method: "simulator" | "gradeFormula";
  replicas: number;
  grades: { grade: number; count: number; perNode: number; used: boolean; formula: string }[];
  formula: string;
}

export interface GeneralEstimate {
  replicas: number;
  allowedPods: number;
  limit: Limit;
  resources: ResourceBound[];
  model: ModelEstimate | null;
  explanation: string[];
}

export type PluginCode = "Success" | "Unschedulable" | "Nooperation" | "Error";

export type Mismatch =
  | { kind: "nodeSelector"; key: string; value: string }
  | { kind: "nodeAffinity" }
  | { kind: "unschedulable" }
  | { kind: "taint"; key: string; effect: TaintEffect };

export type NodeVerdict = { node: number } & (
  | { kind: "filtered"; reason: Mismatch }
  | { kind: "fits"; replicas: number; limit: string }
);

export interface AccurateAnswer {
  /** What the estimator server returns; `null`: an error (no answer). */
  replicas: number | null;
  nodes: { replicas: number; code: PluginCode; nodes: NodeVerdict[] };
  quota: { replicas: number; code: PluginCode } | null;
  orphanPods: number;
}

export type Source =
  | { kind: "estimator"; estimator: "given" | "general" | "accurate" }
  | { kind: "requested" }
  | { kind: "notAsked" };

export interface TargetEstimate {
  name: string;
  /** The combined figure the division uses. */
  availableReplicas: number;
  source: Source;
  given: number | null;
  general: GeneralEstimate | null;
  accurate: AccurateAnswer | null;
}

export interface Estimates {
  version: 1;
  targets: TargetEstimate[];
  warnings: Warning[];
}

export interface KarmadaOutcome {
  version: 1;
  /** Replicas per cluster, candidate order, zero entries dropped. */
  assignment: Assigned[];
  targets: TargetEstimate[];
  seed: number;
  /** The scenario had no seed: `seed` was drawn. */
  seedDrawn: boolean;
  /** Whether a random choice decided anything. */
  randomDecided: boolean;
  trace: Trace;
  warnings: Warning[];
}

/** New instances a node can take: a count or `"unlimited"`. */
export type Capacity = number | "unlimited";

export interface NodeCapacity {
  name: string;
  capacity: Capacity;
  usage: number;
  rate: number;
  boundBy: "cpumem" | "storage" | null;
  explanation: string[];
}

export interface InstancePlan {
  node: string;
  cpu: { numaNode: string; cpuMap: Record<string, number> } | null;
  /** Destination to `[device, size]`. */
  volumes: Record<string, [string, number]>;
}

export interface Deployment {
  strategy: EruStrategy;
  /** New instances per node with capacity; `null`: not in the deploy map. */
  instances: (number | null)[];
  explanation: string[];
}

export interface Capacities {
  version: 1;
  capacities: NodeCapacity[];
  total: Capacity;
  warnings: Warning[];
}

export interface EruOutcome {
  version: 1;
  /** New instances by node name. */
  deploy: Record<string, number>;
  plans: InstancePlan[];
  capacities: NodeCapacity[];
  total: Capacity;
  deployment: Deployment;
  seed: number;
  seedDrawn: boolean;
  warnings: Warning[];
}

export type Outcome = ({ kind: "karmada" } & KarmadaOutcome) | ({ kind: "eru" } & EruOutcome);

export interface QuantityValue {
  /** The amount in the resource's unit (millicores for CPU, else base units). */
  value: number;
  /** The exact amount as a decimal integer string. */
  exact: string;
  unit: "milli" | "base";
  /** The canonical quantity string (`"500m"`, `"16Gi"`). */
  canonical: string;
}

export type ErrorCode =
  | "negative" | "too_large" | "duplicate_name" | "empty_name" | "no_candidates"
  | "invalid_selector" | "unschedulable" | "unknown_value" | "missing" | "invalid_quantity"
  | "invalid_model" | "insufficient_resource" | "insufficient_capacity" | "already_filled"
  | "invalid_count" | "invalid_strategy" | "invalid_cpu" | "invalid_memory" | "invalid_storage"
  | "invalid_volume" | "invalid_usage" | "invalid_input" | "unsupported_version";

export interface Problem {
  code: ErrorCode;
  path: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

/** Every error allot throws: a stable `code` and the `path` of the offending field. */
export class AllotError extends Error {
  readonly code: ErrorCode;
  readonly path: string;
}

/** Everything a scenario asks (JSON text is accepted too). */
export function schedule(scenario: KarmadaScenario): { kind: "karmada" } & KarmadaOutcome;
export function schedule(scenario: EruScenario): { kind: "eru" } & EruOutcome;
export function schedule(scenario: Scenario | string): Outcome;
/**
 * `schedule` with the outcome as JSON text (`JSON.parse` of it is what `schedule` returns):
 * for outcomes that go on as text, such as a response body or a message to a worker.
 * Characters beyond ASCII are written as `\uXXXX` escapes.
 */
export function scheduleJson(scenario: Scenario | string): string;
/** Karmada: each cluster's estimates and the combined figure. */
export function estimate(scenario: KarmadaScenario | string): Estimates;
/** Karmada: the division alone, with `availableReplicas` as stated. */
export function divide(scenario: KarmadaScenario | string): KarmadaOutcome;
/** eru: each node's capacity for the workload. */
export function capacity(scenario: EruScenario | string): Capacities;
/** eru: capacities, the strategy's deploy map and the plans. */
export function deploy(scenario: EruScenario | string): EruOutcome;
/** Check resource models against Karmada's rules: the first problem, or `null`. */
export function validateResourceModels(models: ResourceModel[]): Problem | null;
/** Read a quantity for `resource` (default `cpu`). */
export function parseQuantity(text: string, resource?: string): QuantityValue;
/** The library version. */
export function version(): string;
