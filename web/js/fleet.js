// `allot/fleet` for browsers and bundlers: everything `allot/kubernetes` exports, and the fleet
// planner (a whole dump's bindings under what-ifs), from a module of its own: the planner is
// as large again, and users of objects alone do not download it. The Kubernetes API is
// re-exported rather than left to `allot/kubernetes`, whose module this one contains: a page
// that plans fleets and explains objects loads one module, not both.
import init, * as raw from "./allot_fleet.js";
import { fleetApi } from "./api.js";

await init({ module_or_path: new URL("./allot_fleet_bg.wasm", import.meta.url) });

export { AllotError, isObjects } from "./api.js";
export const {
  schedule, scheduleJson, estimate, divide, filter, select, capacity, deploy,
  validateResourceModels, parseQuantity, version, fromObjects, explain, toObjects, toYaml, fromYaml, bindingOf, bindingYaml,
  planFleet, readiness, planSummary, fleetSession,
} = fleetApi(raw);
