// Entry for Node: read the module from disk once, then export the API.
import { readFile } from "node:fs/promises";
import * as raw from "./allot.js";
import { api } from "./api.js";

raw.initSync({ module: await readFile(new URL("./allot_bg.wasm", import.meta.url)) });

export { AllotError } from "./api.js";
export const {
  schedule, scheduleJson, estimate, divide, filter, select, capacity, deploy,
  validateResourceModels, parseQuantity, version,
} = api(raw);
