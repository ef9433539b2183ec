// Entry for browsers and bundlers: fetch and instantiate the module once, then export the API.
import init, * as raw from "./allot.js";
import { api } from "./api.js";

await init({ module_or_path: new URL("./allot_bg.wasm", import.meta.url) });

export { AllotError } from "./api.js";
export const {
  schedule, scheduleJson, estimate, divide, filter, select, capacity, deploy,
  validateResourceModels, parseQuantity, version,
} = api(raw);
