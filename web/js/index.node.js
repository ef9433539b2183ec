// Entry for Node: read the module from disk once, then export the API.
import { readFile } from "node:fs/promises";
import * as raw from "./allot.js";
import { bind } from "./api.js";

raw.initSync({ module: await readFile(new URL("./allot_bg.wasm", import.meta.url)) });

export { AllotError } from "./api.js";
export const {
  schedule,
  estimate,
  divide,
  capacity,
  deploy,
  validateResourceModels,
  parseQuantity,
  version,
} = bind(raw);
