// What the end-to-end tests compare: what a page (or an <allot-playground> widget) shows, and
// what the npm package's `schedule` (the same core) computes for the same scenario; and what
// axe-core finds on a page.
import { schedule } from "../web/pkg/index.node.js";

/** In the browser: what the result table shows, target name -> replicas (Karmada) or new
 * instances (eru); in the page, or in the shadow root of the element `host` (a selector). */
export function readRows(host) {
  const root = host ? document.querySelector(host)?.shadowRoot : document;
  if (!root) return {};
  return Object.fromEntries(
    [...root.querySelectorAll("#assignment tbody tr, #deploy tbody tr")].map((r) => [
      r.dataset.cluster ?? r.dataset.node,
      r.querySelector(".replicas").textContent,
    ]),
  );
}

/** What the core says, in the page's terms. */
export function expected(scenario) {
  const o = schedule(scenario);
  if (o.kind === "eru")
    return Object.fromEntries(o.capacities.map((c) => [c.name, String(o.deploy[c.name] ?? "–")]));
  // Clusters that held replicas but are no longer candidates are listed with 0.
  const gone = Object.keys(scenario.previous ?? {}).filter((n) => !o.targets.some((t) => t.name === n));
  return Object.fromEntries([
    ...o.targets.map((t) => [t.name, String(o.assignment.find((a) => a.name === t.name)?.replicas ?? 0)]),
    ...gone.map((n) => [n, "0"]),
  ]);
}

/** The core's error code for a scenario it cannot schedule; undefined when it can. */
export function failure(scenario) {
  try {
    schedule(scenario);
    return undefined;
  } catch (e) {
    return e.code;
  }
}

export { axe } from "./harness.mjs";
