// The public API over the raw wasm-bindgen exports (which take scenarios as objects or JSON
// text): errors rethrown as AllotError. Both entries (browser, Node) instantiate the module and
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

export const scheduleJson = call("scheduleJson");
// The outcome object is V8's JSON.parse of the module's text: the fastest way to build it.
export const schedule = (scenario) => JSON.parse(scheduleJson(scenario));
export const estimate = call("estimate");
export const divide = call("divide");
export const capacity = call("capacity");
export const deploy = call("deploy");
export const validateResourceModels = call("validateResourceModels");
export const parseQuantity = call("parseQuantity");
export const version = call("version");
