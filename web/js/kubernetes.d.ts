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
  /** The scheduler's feature gates, as Karmada's `--feature-gates` text
   * (`"CustomizedClusterResourceModeling=false"`) or a map of gate to boolean; those that
   * change one workload's placement are read into the scenario's `policy.gates`, each unset
   * one at the release's default. */
  featureGates?: string | Record<string, boolean | string>;
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
