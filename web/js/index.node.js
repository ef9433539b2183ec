// Entry for Node: read the module from disk once, then export the API.
import { readFile } from "node:fs/promises";
import { initSync } from "./allot.js";

initSync({ module: await readFile(new URL("./allot_bg.wasm", import.meta.url)) });

export * from "./api.js";
