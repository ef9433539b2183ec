// `allot/fleet` for Node: the module read from disk once.
import { readFile } from "node:fs/promises";
import * as raw from "./allot_fleet.js";
import { fleetApi } from "./api.js";

raw.initSync({ module: await readFile(new URL("./allot_fleet_bg.wasm", import.meta.url)) });

export { AllotError, isObjects } from "./api.js";
export const {
  schedule, scheduleJson, estimate, divide, filter, select, capacity, deploy,
  validateResourceModels, parseQuantity, version, fromObjects, explain, toObjects, toYaml, fromYaml, bindingOf, bindingYaml,
  planFleet, readiness, planSummary, fleetSession,
} = fleetApi(raw);
