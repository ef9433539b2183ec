// Types of `allot/kubernetes`: everything `allot` exports, plus Kubernetes and Karmada objects
// in (YAML or JSON text, objects, or a list of either) and out.

import type * as T from "./types.js";
import type { KarmadaScenario, EruScenario, Scenario } from "./index.js";

export * from "./index.js";

/**
 * Objects as they come: YAML text (several documents allowed) or JSON text, one object (a
 * `List` too), or an array of objects and texts (several files).
 */
export type ObjectsInput = string | T.KubernetesObject | Array<T.KubernetesObject | string>;

export interface ObjectsOptions {
  /** The policy to use, by name, over the one Karmada's detector would choose (the report's
   * `policy` says whether it selects the template). */
  policy?: string;
  /** Each member cluster's own Nodes and Pods (`kubectl get nodes,pods -A -o yaml` run
   * against it), by the Cluster's name. */
  members?: Record<string, ObjectsInput>;
  /** The Karmada release the objects come from (`"1.17"`, `"v1.16.8"`); its rules apply.
   * Default: the newest allot follows. */
  karmada?: string;
}

/** The scenario the objects describe, and how each was read (used, defaulted, ignored, and
 * which policy was chosen and why). */
export function fromObjects(input: ObjectsInput, options?: ObjectsOptions): T.Imported;
/**
 * Import the objects and schedule them: the scenario, the report, the whole outcome, the
 * binding's new `spec.clusters` with what changes, and the ResourceBinding Karmada would write.
 * Each part is made when first read (the same value whenever it is read).
 */
export function explain(input: ObjectsInput, options?: ObjectsOptions): T.Explained;
/** What-ifs for {@link planFleet}: clusters by name, workloads as `KIND/NAMESPACE/NAME`. */
export interface WhatIf {
  clusterDown?: string[];
  clusterUp?: string[];
  cordon?: string[];
  uncordon?: string[];
  deleteCluster?: string[];
  /** `KIND/NAMESPACE/NAME=REPLICAS` (`deploy/shop/web=6`). */
  scale?: string[];
  /** Workloads a WorkloadRebalancer lists. */
  rebalance?: string[];
  /** Clusters that join. */
  addClusters?: ObjectsInput;
  /** Policies and templates applied over the dump's. */
  apply?: ObjectsInput;
  /** Policies deleted, as objects (their kind, namespace and name are read). */
  delete?: ObjectsInput;
  /** Policies deleted: `NAMESPACE/NAME` (PropagationPolicy) or `NAME` (ClusterPropagationPolicy). */
  deletePolicy?: string[];
  overcommitProtection?: boolean;
  taintEviction?: boolean;
  priorityQueue?: boolean;
  /** Gate WorkloadAffinity (Karmada 1.17+): policies' `workloadAffinity` groups workloads. */
  workloadAffinity?: boolean;
}

/** A binding of the plan: `spec.clusters` before and after, and what became of it. */
export interface BindingPlan {
  id: { kind: "ResourceBinding" | "ClusterResourceBinding"; namespace?: string; name: string };
  replicas: number;
  before: Record<string, number>;
  after: Record<string, number>;
  moved: number;
  outcome: "changed" | "unschedulable" | "unchanged" | "evicted";
  trigger?: string;
  condition?: { reason: string; message?: string };
  why?: { reason: string; [key: string]: unknown };
}

/** A cluster of the plan: the load placed there before and after, against its capacity. */
export interface ClusterPlan {
  name: string;
  before: { replicas: number; requests: Record<string, number> };
  after: { replicas: number; requests: Record<string, number> };
  allocatable: Record<string, number>;
  free: Record<string, number>;
  added: { replicas: number; requests: Record<string, number> };
  overcommit: Record<string, number>;
}

/** What Karmada does with every binding of a dump, given the what-ifs. */
export interface FleetPlan {
  steps: Array<{ event: string; enqueued: unknown[]; notEnqueued: unknown[]; passes: unknown[] }>;
  bindings: BindingPlan[];
  clusters: ClusterPlan[];
  summary: {
    bindings: number;
    changed: number;
    unschedulable: number;
    unchanged: number;
    movedReplicas: number;
    overcommittedClusters: number;
  };
  report: { clusters: T.ImportReport; problems: Array<{ object: string; field: string; message: string }> };
  resourceBindings: T.KubernetesObject[];
}

/**
 * Plan what Karmada does with every binding of a dump (`kubectl get
 * clusters,pp,cpp,rb,crb,deploy,sts,job -A -o yaml`) when clusters fail, join or leave, policies
 * change or workloads scale; without what-ifs, the drift of today's placements.
 */
export function planFleet(input: ObjectsInput, options?: ObjectsOptions, whatIf?: WhatIf): FleetPlan;
/** A fleet kept between what-ifs ({@link fleetSession}). */
/**
 * Called while the scheduler works through a what-if: `done` bindings taken of `total`
 * (taken and waiting), at each hundredth and at the end.
 */
export type FleetProgress = (done: number, total: number) => void;
export interface FleetSession {
  /**
   * The plan of a what-if over the fleet as it is, which stays as it is: the bindings it
   * concerned (not those untouched or whose affinity excludes the cluster), steps without
   * their per-binding lists.
   */
  plan(whatIf?: WhatIf, progress?: FleetProgress): FleetPlan;
  /** The plan of a what-if, whose fleet after becomes the fleet as it is: a step of the history. */
  apply(whatIf?: WhatIf, progress?: FleetProgress): FleetPlan;
  /** Make step `k` of the history (0: the dump as read) the fleet as it is. */
  go(k: number): boolean;
  /** The fleet as it is: each cluster's health, taints, labels, load and capacity; each binding's placement. */
  state(): FleetState;
  /** Every cluster as it is: `state().clusters`. */
  clusters(): FleetClusterState[];
  /** How the dump was read. */
  report(): FleetPlan["report"];
  /**
   * The PropagationPolicies and ClusterPropagationPolicies as they are now (the dump's, with
   * those applied since), with the fields allot reads: a form edits one and applies it.
   */
  policies(): Record<string, unknown>[];
  /** The position of the fleet as it is in the history. */
  readonly at: number;
  /** How many fleets the history holds. */
  readonly steps: number;
  /** Free the module's memory the session holds. */
  free(): void;
}
/** One cluster of {@link FleetSession.state}. */
export interface FleetClusterState {
  name: string;
  ready: "ready" | "notReady" | "unknown" | "never";
  cordoned: boolean;
  taints: { key: string; value?: string; effect: string }[];
  labels: Record<string, string>;
  after: { replicas: number; requests: Record<string, number> };
  allocatable: Record<string, number>;
  free: Record<string, number>;
}
/** One binding of {@link FleetSession.state}. */
export interface FleetBindingState {
  id: { kind: string; namespace?: string; name: string };
  /** `KIND/NAMESPACE/NAME`, as a what-if names it. */
  workload: string | null;
  policy: string | null;
  claimed: boolean;
  replicas: number;
  clusters: Record<string, number>;
  condition: unknown;
}
export interface FleetState {
  clusters: FleetClusterState[];
  bindings: FleetBindingState[];
}
/**
 * Read a dump once and keep its fleet: each what-if is then planned against the fleet as the
 * applied ones left it, with a history to go back and forth in.
 */
export function fleetSession(input: ObjectsInput, options?: ObjectsOptions): FleetSession;
/** A Karmada scenario as objects: Clusters, the template, the policy, the binding, members. */
export function toObjects(scenario: KarmadaScenario | string): T.Exported;
/**
 * A Karmada scenario's schedule as the binding it writes: the new `spec.clusters` with what
 * changes, and the ResourceBinding object, for the template `template` names (else
 * `workload` in `default`).
 */
export function bindingOf(
  scenario: KarmadaScenario | string,
  template?: { name?: string; namespace?: string },
): T.Written;
/**
 * The binding as YAML, after comments saying what changes in its `spec.clusters`
 * (`# * member2: 6 -> 8`): for `explain`'s or `bindingOf`'s answer.
 */
export function bindingYaml(written: Pick<T.Written, "binding" | "resourceBinding">): string;
/** Documents as YAML: an array is one document per item. */
export function toYaml(documents: unknown): string;
/** One value written as YAML or JSON (a pasted toleration list, say); `null` for empty text. */
export function fromYaml(text: string): unknown;
/** Whether `input` is objects (YAML, an array, or an object with `apiVersion`/`kind`/`items`). */
export function isObjects(input: unknown): boolean;

/** Everything a scenario asks, or (given objects) the schedule of the scenario they make. */
export function schedule(scenario: KarmadaScenario): { kind: "karmada" } & T.KarmadaOutcome;
export function schedule(scenario: EruScenario): { kind: "eru" } & T.EruOutcome;
export function schedule(
  objects: ObjectsInput,
  options?: ObjectsOptions,
): { kind: "karmada" } & T.KarmadaOutcome;
export function schedule(scenario: Scenario | string): T.Outcome;
