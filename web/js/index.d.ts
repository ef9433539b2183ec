// Types of the allot npm package: scenario format v1 in, outcome v1 out (docs/scenario.md).
//
// The document types are generated from the Rust types (./types.d.ts, from allot.schema.json);
// this file adds what only JavaScript has: the functions, the error class, and the two
// scenario families as the overloads of `schedule` tell them apart.

import type * as T from "./types.js";

export type * from "./types.js";

/** Resource labels, name to value. */
export type Labels = Record<string, string>;
export type DivisionMethod = T.Method;
export type PluginCode = T.Code;
export type KarmadaStrategy = "duplicated" | "staticWeight" | "dynamicWeight" | "aggregated";

/** A Karmada scenario: member `clusters`, never eru `nodes`. */
export type KarmadaScenario = Omit<T.Scenario, "clusters" | "nodes"> & {
  /** Member clusters, in candidate order. */
  clusters: T.Cluster[];
  nodes?: never;
};

/** An eru scenario: `nodes`, never Karmada `clusters`, `previous` or `uid`. */
export type EruScenario = Omit<T.Scenario, "clusters" | "nodes" | "previous" | "uid"> & {
  nodes: T.EruNode[];
  clusters?: never;
  previous?: never;
  uid?: never;
};

/** A whole problem: Karmada `clusters` or eru `nodes`, with the workload and the policy. */
export type Scenario = KarmadaScenario | EruScenario;

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

/** Every error allot throws: a stable `code` and the `path` of the offending field. */
export class AllotError extends Error {
  readonly code: T.ErrorCode;
  readonly path: string;
}

/** Everything a scenario asks (JSON text is accepted too). */
export function schedule(scenario: KarmadaScenario): { kind: "karmada" } & T.KarmadaOutcome;
export function schedule(scenario: EruScenario): { kind: "eru" } & T.EruOutcome;
export function schedule(scenario: Scenario | string): T.Outcome;
/**
 * `schedule` with the outcome as JSON text (`JSON.parse` of it is what `schedule` returns):
 * for outcomes that go on as text, such as a response body or a message to a worker.
 * Characters beyond ASCII are written as `\uXXXX` escapes.
 */
export function scheduleJson(scenario: Scenario | string): string;
/** Karmada: each cluster's estimates and the combined figure. */
export function estimate(scenario: KarmadaScenario | string): T.Estimates;
/** Karmada: the division alone, with `availableReplicas` as stated. */
export function divide(scenario: KarmadaScenario | string): T.KarmadaOutcome;
/**
 * Karmada: each filter plugin's verdict and the scores, per cluster (the steps before
 * selection). A scheduling failure (no cluster fits) is in the report's `error`.
 */
export function filter(scenario: KarmadaScenario | string): T.PipelineReport;
/**
 * Karmada: filters, scores, the candidate order and the clusters selection keeps (spread
 * constraints, affinity terms tried in turn), without the division. A scheduling failure
 * (no cluster fits, spread constraints unmet) is in the report's `error`.
 */
export function select(scenario: KarmadaScenario | string): T.PipelineReport;
/** eru: each node's capacity for the workload. */
export function capacity(scenario: EruScenario | string): T.Capacities;
/** eru: capacities, the strategy's deploy map and the plans. */
export function deploy(scenario: EruScenario | string): T.EruOutcome;
/** Check resource models against Karmada's rules: the first problem, or `null`. */
export function validateResourceModels(models: T.ResourceModel[]): T.Problem | null;
/** Read a quantity for `resource` (default `cpu`). */
export function parseQuantity(text: string, resource?: string): T.QuantityValue;
/** The library version. */
export function version(): string;
