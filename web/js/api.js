// The public API over the raw wasm-bindgen exports (which take scenarios as objects or JSON
// text, and hand outcomes back as JSON text): outcomes parsed, errors rethrown as AllotError. Both entries (browser, Node) instantiate the module and
// re-export this; the wrappers only reach the module when called.
import * as raw from "./allot.js";

/** An allot error: a stable `code` and the `path` of the offending field. */
export class AllotError extends Error {
  constructor(message, code, path) {
    super(message);
    this.name = "AllotError";
    this.code = code;
    this.path = path;
  }
}

function rethrow(e) {
  if (e instanceof AllotError) throw e;
  if (e && typeof e.code === "string") throw new AllotError(e.message, e.code, e.path ?? "");
  throw e;
}

function call(name) {
  return (...args) => {
    try {
      return raw[name](...args);
    } catch (e) {
      rethrow(e);
    }
  };
}

// The scenario calls hand back the outcome as JSON text; its object is V8's JSON.parse of it,
// the fastest way to build it.
function parsed(name) {
  const f = call(name);
  return (scenario) => JSON.parse(f(scenario));
}

export const scheduleJson = call("scheduleJson");
export const schedule = parsed("scheduleJson");
export const estimate = parsed("estimate");
export const divide = parsed("divide");
export const capacity = parsed("capacity");
export const deploy = parsed("deploy");
export const validateResourceModels = call("validateResourceModels");
export const parseQuantity = call("parseQuantity");
export const version = call("version");
