// Entry for browsers and bundlers: fetch and instantiate the module once, then export the API.
import init from "./allot.js";

await init({ module_or_path: new URL("./allot_bg.wasm", import.meta.url) });

export * from "./api.js";
