import type { Scenario } from "./index.js";

/**
 * `<allot-playground>`: the allot playground's embedded view, in a shadow root. Attributes:
 * `preset` (an example's name) or an inline `<script type="application/json">` scenario;
 * `editors` (names separated by spaces: replicas, count, weights, method, strategy, workload,
 * policy, clusters, nodes, scheduling, rules, kubernetes, all, none); `height` (a CSS height);
 * `playground` (the playground's address, for an "open in the allot playground" link);
 * `fleet` (an example fleet: `fleet-shop`, `fleet-policy`, `fleet-burst`, served from the
 * playground's `manifests/`): the fleet view instead of a scenario, planned in a Web Worker.
 */
export declare class AllotPlayground extends HTMLElement {
  /** The scenario shown, as last edited (a copy); setting it shows that scenario instead. */
  scenario: Scenario | null;
}

/** Fired by `<allot-playground>` when its view starts and after every edit. */
export type AllotChangeEvent = CustomEvent<{ scenario: Scenario }>;

declare global {
  interface HTMLElementTagNameMap {
    "allot-playground": AllotPlayground;
  }
  interface HTMLElementEventMap {
    "allot-change": AllotChangeEvent;
  }
}
