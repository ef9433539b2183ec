// Types of `allot/fleet`: everything `allot/kubernetes` exports, plus the fleet planner: a
// whole dump's bindings under what-ifs, and a fleet kept between what-ifs.

import type * as T from "./types.js";
import type { ObjectsInput, ObjectsOptions } from "./kubernetes.js";

export * from "./kubernetes.js";

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
  /**
   * Karmada's feature gates: `"Failover=true,SchedulingOvercommitProtection=true"` as
   * `--feature-gates` writes them, or `{Failover: true}`; an unset gate takes the release's default.
   */
  featureGates?: T.FeatureGates;
  /** The controller-manager's `--enable-no-execute-taint-eviction` (with gate Failover: NoExecute taints evict). */
  enableNoExecuteTaintEviction?: boolean;
  /** Shorthand for gate SchedulingOvercommitProtection on. */
  overcommitProtection?: boolean;
  /** Shorthand for gate Failover on with `enableNoExecuteTaintEviction`. */
  taintEviction?: boolean;
  /** `--no-execute-taint-eviction-purge-mode`: `Gracefully` (default) or `Directly`. */
  noExecuteTaintEvictionPurgeMode?: "Gracefully" | "Directly";
  /** `--graceful-eviction-timeout` as a duration (`10m` by default). */
  gracefulEvictionTimeout?: string;
  /** The fleet as it stands this long after the events (`90s`, `5m`); absent: once every timed step has run. */
  at?: string;
  /** Shorthand for gate PriorityBasedScheduling. */
  priorityQueue?: boolean;
  /** Gate WorkloadAffinity (Karmada 1.17+): policies' `workloadAffinity` groups workloads. */
  workloadAffinity?: boolean;
  /** `KIND/NAMESPACE/NAME@CLUSTER`: the member reports the workload Unhealthy there (application failover). */
  unhealthy?: string[];
  /** `KIND/NAMESPACE/NAME@CLUSTER`: the member reports the workload Healthy there. */
  healthy?: string[];
  /** Gate GracefulEviction (default on): application failover's `Gracefully` needs it. */
  gracefulEviction?: boolean;
  /** Gate StatefulFailoverInjection (default off): state preservation. */
  statefulFailoverInjection?: boolean;
  /** The members report each workload Healthy as soon as it is placed: graceful eviction tasks
   * of a binding placed again end at once, and its assumptions are released. */
  assumeHealthy?: boolean;
}

/** A graceful eviction task: a cluster the binding is leaving. */
export interface EvictionTask {
  fromCluster: string;
  replicas?: number;
  createdAt: number;
  purgeMode: "Gracefully" | "Directly" | "Never";
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  producer?: string;
  reason?: string;
  preservedLabelState?: Record<string, string>;
  clustersBeforeFailover?: string[];
}

/** A binding of the plan: `spec.clusters` before and after, and what became of it. */
export interface BindingPlan {
  id: { kind: "ResourceBinding" | "ClusterResourceBinding"; namespace?: string; name: string };
  replicas: number;
  before: Record<string, number>;
  after: Record<string, number>;
  /** Replicas that leave a cluster and land on another. */
  moved: number;
  /** Replicas of the workload placed nowhere after. */
  unplaced: number;
  /**
   * Its change was already pending before the what-ifs: a scheduler restart over the same
   * fleet (the drift) changes it the same way. The summary's counts leave it out.
   */
  pending: boolean;
  /** Why it ends as it does, in plain words with Karmada's term in brackets. */
  because: string;
  outcome: "changed" | "unschedulable" | "unchanged" | "evicted";
  trigger?: string;
  condition?: { reason: string; message?: string };
  why?: { reason: string; [key: string]: unknown };
  /** Its graceful eviction tasks afterwards (absent: none). */
  evicting?: EvictionTask[];
}

/** A cluster of the plan: the load placed there before and after, against its capacity. */
export interface ClusterPlan {
  name: string;
  /** Its state before the events and after, in words (`Ready`, `NotReady (Ready=False)`, `Ready, being deleted`). */
  stateBefore: string;
  state: string;
  before: { replicas: number; requests: Record<string, number> };
  after: { replicas: number; requests: Record<string, number> };
  allocatable: Record<string, number>;
  free: Record<string, number>;
  added: { replicas: number; requests: Record<string, number> };
  overcommit: Record<string, number>;
}

/** A binding's identity in a plan. */
export type BindingId = BindingPlan["id"];

/** One step of the timeline, `at` seconds after the events, `said` in words; `kind` says which (more may come).
 * `again`: a failure that repeats the binding's last one (a retry that changes nothing; told once). */
export type TimelineEntry = { at: number; said: string; again?: true } & (
  | { kind: "condition"; cluster: string; type: string; status: string }
  | { kind: "tainted" | "untainted"; cluster: string; taint: string; policy?: string }
  | { kind: "evicted" | "failedOver"; binding: BindingId; cluster: string; replicas: number; purgeMode: "Gracefully" | "Directly" | "Never" }
  | { kind: "reported"; binding: BindingId; cluster: string; health: "Healthy" | "Unhealthy" | "Unknown" }
  | { kind: "scheduled"; binding: BindingId; trigger: string; clusters: Record<string, number> }
  | { kind: "unschedulable"; binding: BindingId; condition: { reason: string; message?: string } }
  | { kind: "taskEnded"; binding: BindingId; cluster: string; reason: "timeout" | "healthy" | "confirmed" }
);

/** What Karmada does with every binding of a dump, given the what-ifs. */
export interface FleetPlan {
  steps: Array<{ event: string; enqueued: unknown[]; notEnqueued: unknown[]; passes: unknown[] }>;
  /** What the controllers did, when: the cluster's condition, taints, evictions, rescheduling, tasks' ends. */
  timeline: TimelineEntry[];
  /** What Karmada may do differently from one run to the next (bindings scheduled together
   * whose order decides), in words; absent when nothing. */
  caveats?: string[];
  bindings: BindingPlan[];
  clusters: ClusterPlan[];
  /** Counts of what the what-ifs cause; `pending`: the bindings whose change was already pending. */
  summary: {
    bindings: number;
    changed: number;
    unschedulable: number;
    unchanged: number;
    movedReplicas: number;
    unplacedReplicas: number;
    pending: number;
    overcommittedClusters: number;
    /** The counts in one sentence, as `allot plan` prints it and the fleet view shows it. */
    said: string;
  };
  /**
   * How the dump was read: `problems`, what Karmada would act on otherwise than it looks (a
   * policy selecting nothing); `warnings`, what allot does not read (an unknown kind, an unknown
   * field of a policy's placement).
   */
  report: {
    clusters: T.ImportReport;
    problems: Array<{ object: string; field: string; message: string }>;
    warnings: Array<{ object: string; field: string; message: string }>;
  };
  resourceBindings: T.KubernetesObject[];
}

/**
 * Plan what Karmada does with every binding of a dump (`kubectl get
 * clusters,clustertaintpolicies,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml`) when clusters fail, join or leave, policies
 * change or workloads scale; without what-ifs, the drift of today's placements.
 */
export function planFleet(input: ObjectsInput, options?: ObjectsOptions, whatIf?: WhatIf): FleetPlan;
/**
 * A plan's counts (its `summary`'s fields but `said`) in one sentence, as the planner says a
 * whole plan's `summary.said`: for the part of a plan a reader counts itself.
 */
export function planSummary(counts: Omit<FleetPlan["summary"], "said">): string;
/** Which failures {@link readiness} answers, and the settings (and what-ifs) of every one. */
export interface ReadinessAsk extends WhatIf {
  /** Each cluster (default), each zone (`spec.zone`, `spec.zones`) or each region. */
  each?: "cluster" | "zone" | "region";
  /** Only the clusters this label selector matches fail (kubectl's `-l`: `env=prod,zone in (a,b)`). */
  select?: string;
}
/** One failure, as the plan of its clusters down says it. */
export interface ReadinessRow {
  /** The cluster's, zone's or region's name. */
  name: string;
  /** The clusters down. */
  clusters: string[];
  /** Bindings placed on a failed cluster before, or that the plan changes. */
  bindings: number;
  /** Replicas newly placed on clusters that stay up, and where (most first). */
  rescheduled: number;
  to: Array<{ cluster: string; replicas: number }>;
  /** Replicas no cluster holds any more, grouped by Karmada's reason. */
  unplaced: number;
  unplacedBy: Array<{
    reason: string;
    message: string;
    replicas: number;
    bindings: number;
    /** The group in words: `2 replicas unplaced (1 binding): no cluster fits (Scheduled=False, NoClusterFit): ...`. */
    said: string;
  }>;
  /** Replicas kept on a failed cluster: lost until it recovers. */
  lost: number;
  /** Its harm in a few words: `5 lost, 2 unplaced`, or `-`. */
  harm: string;
  /** Clusters pushed past their free capacity, and by how much per resource. */
  overcommitted: Array<{ cluster: string; by: Record<string, number> }>;
  /** Bindings left with no replica on a cluster that stays up. */
  outages: number;
  /** Seconds until the controllers take their last step (the plan's timeline). */
  settledAfter: number;
  /** Every binding affected. */
  workloads: Array<{
    id: BindingPlan["id"];
    before: Record<string, number>;
    after: Record<string, number>;
    outcome: BindingPlan["outcome"];
    lost: number;
    unplaced: number;
    outage: boolean;
  }>;
}
export interface ReadinessSummary {
  failures: number;
  /** Failures that leave replicas unplaced or lost, or a cluster overcommitted. */
  harmful: number;
  worst: string | null;
}
/** Every failure, worst first (more replicas unplaced plus lost, more clusters overcommitted, then the name). */
export interface Readiness {
  each: "cluster" | "zone" | "region";
  select: string | null;
  rows: ReadinessRow[];
  summary: ReadinessSummary;
  /** The answer in one sentence, as `allot plan --each` prints it and the fleet view shows it. */
  said: string;
  /**
   * With what-ifs in the ask: the fleet before them, the failures worse or better after them,
   * and that comparison in words (`said`).
   */
  before?: { rows: ReadinessRow[]; summary: ReadinessSummary; worse: string[]; better: string[]; said: string };
  report: FleetPlan["report"];
}
/**
 * Can the fleet lose any one cluster, zone or region? Every failure planned as
 * {@link planFleet} plans `clusterDown`, under the ask's settings, one row each, worst first.
 * `progress(done, total)` is called after each failure.
 */
export function readiness(input: ObjectsInput, options?: ObjectsOptions, ask?: ReadinessAsk, progress?: FleetProgress): Readiness;
/**
 * Called while the scheduler works through a what-if: `done` bindings taken of `total`
 * (taken and waiting), at each hundredth and at the end.
 */
export type FleetProgress = (done: number, total: number) => void;
/** A fleet kept between what-ifs ({@link fleetSession}). */
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
  /** Every failure of the fleet as it is ({@link readiness}); `progress` after each failure. */
  readiness(ask?: ReadinessAsk, progress?: FleetProgress): Readiness;
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
  /** Being deleted (unjoined). */
  deleting: boolean;
  /** Its state in words. */
  state: string;
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
