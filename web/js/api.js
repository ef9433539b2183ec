// The public API over the raw wasm-bindgen exports (which take scenarios as objects or JSON
// text): errors rethrown as AllotError. Shared by the browser and Node entries.

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

function call(fn) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      rethrow(e);
    }
  };
}

export function bind(raw) {
  return {
    schedule: call(raw.schedule),
    estimate: call(raw.estimate),
    divide: call(raw.divide),
    capacity: call(raw.capacity),
    deploy: call(raw.deploy),
    validateResourceModels: call(raw.validateResourceModels),
    parseQuantity: call(raw.parseQuantity),
    version: raw.version,
  };
}
