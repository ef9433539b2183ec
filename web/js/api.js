// The public API over the raw wasm-bindgen exports (which take scenarios as objects or JSON
// text, and hand outcomes back as the bytes of JSON text): outcomes decoded and parsed, errors
// rethrown as AllotError. Both entries (browser, Node) instantiate the module and re-export
// this; the wrappers only reach the module when called.
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

// Only allot's own errors become AllotErrors: the module names them so. An engine's error
// (a TypeError with Node's `code`, say) stays what it is.
function rethrow(e) {
  if (e instanceof AllotError) throw e;
  if (e instanceof Error && e.name === "AllotError" && typeof e.code === "string")
    throw new AllotError(e.message, e.code, e.path ?? "");
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

// The scenario calls hand back the outcome as the bytes of its JSON text, which is 7-bit
// ASCII. In Node, Buffer copies such bytes into a string an order of magnitude faster than
// TextDecoder (0.07 ms against 0.9 ms for 1.7 MB), and latin1 reads ASCII as UTF-8 does.
// Elsewhere a TextDecoder per call: in Safari 16 to 18.4 a decoder throws a RangeError once it
// has decoded 2 GiB in all (WebKit bug 280593), which a long-lived page of large outcomes can
// reach; wasm-bindgen's glue replaces its own decoder for the same reason.
const NodeBuffer = globalThis.process?.versions?.node ? globalThis.Buffer : undefined;
const ascii = NodeBuffer
  ? (b) => NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1")
  : (b) => new TextDecoder().decode(b);

function text(name) {
  const f = call(name);
  return (scenario) => ascii(f(scenario));
}

// An outcome's object is V8's JSON.parse of its text, the fastest way to build it.
function parsed(name) {
  const f = text(name);
  return (scenario) => JSON.parse(f(scenario));
}

export const scheduleJson = text("scheduleJson");
export const schedule = parsed("scheduleJson");
export const estimate = parsed("estimate");
export const divide = parsed("divide");
export const filter = parsed("filter");
export const select = parsed("select");
export const capacity = parsed("capacity");
export const deploy = parsed("deploy");
export const validateResourceModels = call("validateResourceModels");
export const parseQuantity = call("parseQuantity");
export const version = call("version");
