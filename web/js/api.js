// The public API over the raw wasm-bindgen exports (which take scenarios as objects or JSON
// text, and hand outcomes back as the bytes of JSON text): outcomes decoded and parsed, errors
// rethrown as AllotError. Each entry (browser, Node; main, `allot/kubernetes` and `allot/fleet`)
// instantiates its module and exports what `api(raw)` (`kubernetesApi(raw)`, `fleetApi(raw)`)
// make of its exports.

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

function call(raw, name) {
  return (...args) => {
    try {
      return raw[name](...args);
    } catch (e) {
      rethrow(e);
    }
  };
}

// The scenario calls hand back the outcome as the bytes of its JSON text, which is 7-bit
// ASCII, in a view of the module's memory that the next call may overwrite: so they are
// decoded at once. In Node, Buffer copies such bytes into a string an order of magnitude
// faster than TextDecoder (0.07 ms against 0.9 ms for 1.7 MB), and latin1 reads ASCII as
// UTF-8 does.
// Elsewhere a TextDecoder per call: in Safari 16 to 18.4 a decoder throws a RangeError once it
// has decoded 2 GiB in all (WebKit bug 280593), which a long-lived page of large outcomes can
// reach; wasm-bindgen's glue replaces its own decoder for the same reason.
const NodeBuffer = globalThis.process?.versions?.node ? globalThis.Buffer : undefined;
const ascii = NodeBuffer
  ? (b) => NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1")
  : (b) => new TextDecoder().decode(b);

/** The main module's API over its raw exports. */
export function api(raw) {
  const text = (name) => {
    const f = call(raw, name);
    return (...args) => ascii(f(...args));
  };
  // An outcome's object is V8's JSON.parse of its text, the fastest way to build it.
  const parsed = (name) => {
    const f = text(name);
    return (...args) => JSON.parse(f(...args));
  };
  return {
    scheduleJson: text("scheduleJson"),
    schedule: parsed("scheduleJson"),
    estimate: parsed("estimate"),
    divide: parsed("divide"),
    filter: parsed("filter"),
    select: parsed("select"),
    capacity: parsed("capacity"),
    deploy: parsed("deploy"),
    validateResourceModels: call(raw, "validateResourceModels"),
    parseQuantity: call(raw, "parseQuantity"),
    version: call(raw, "version"),
    parsed,
  };
}

/**
 * Whether `input` is Kubernetes objects rather than a scenario: YAML text, an array, or an
 * object (or JSON text of one) with `apiVersion`, `kind` or `items`.
 */
export function isObjects(input) {
  if (Array.isArray(input)) return true;
  if (typeof input === "string") {
    const t = input.trimStart();
    if (t.startsWith("[")) return true;
    if (!t.startsWith("{")) return true;
    try {
      input = JSON.parse(t);
    } catch {
      return false;
    }
  }
  return input !== null && typeof input === "object" &&
    ("apiVersion" in input || "kind" in input || "items" in input);
}

// `explain`'s answer: an object whose parts the module writes, and this parses, when the
// caller first reads them. On a control plane's dump the parts run to a hundred megabytes of
// JSON text (the scenario a third of it, the whole schedule more than half), and a caller
// often reads one or two: the placement, or the binding. Each part becomes a plain property
// when read (or assigned), and the module's copy is freed once all have been read. So that
// answers read in part do not hold the module's memory, at most LIVE of them keep it: beyond
// that, the oldest one's unread parts are written out as bytes (parsed when read) and its
// copy in the module freed, as is an answer's that was collected unread.
const PARTS = ["scenario", "report", "outcome", "binding", "resourceBinding"];
const LIVE = 2;
// For each answer that still holds the module's copy: the answer (weakly) and its state.
const waiting = [];

function parts(explanation) {
  const out = {};
  // The module's copy (`null` once freed) and the parts written out of it, by position.
  const state = { explanation, bytes: [], unread: PARTS.length };
  const settle = (name, value) => {
    Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
    if (--state.unread === 0) free(state);
  };
  PARTS.forEach((name, k) => {
    Object.defineProperty(out, name, {
      enumerable: true,
      configurable: true,
      get() {
        let value;
        try {
          const bytes = state.bytes[k] ?? state.explanation.part(k);
          value = JSON.parse(ascii(bytes));
        } catch (e) {
          rethrow(e);
        }
        state.bytes[k] = undefined;
        settle(name, value);
        return value;
      },
      set(value) {
        state.bytes[k] = undefined;
        settle(name, value);
      },
    });
  });
  return { out, state };
}

function free(state) {
  state.explanation?.free();
  state.explanation = null;
}

// Before a new answer: free the copies of answers collected or read whole, and write out the
// unread parts of the oldest beyond the LIVE newest.
function makeRoom() {
  for (let k = waiting.length - 1; k >= 0; k--) {
    const { answer, state } = waiting[k];
    if (!state.explanation || !answer.deref()) {
      free(state);
      waiting.splice(k, 1);
    }
  }
  while (waiting.length >= LIVE) {
    const { answer, state } = waiting.shift();
    const out = answer.deref();
    PARTS.forEach((name, k) => {
      if (out && "get" in (Object.getOwnPropertyDescriptor(out, name) ?? {}))
        state.bytes[k] = state.explanation.part(k).slice();
    });
    free(state);
  }
}

/** The `allot/kubernetes` module's API: the main API, objects in and out, YAML. */
export function kubernetesApi(raw) {
  const base = api(raw);
  const explainRaw = call(raw, "explain");
  const explain = (...args) => {
    if (typeof WeakRef !== "function") {
      // Without weak references, every part at once, as the answer was before.
      const { out } = parts(explainRaw(...args));
      for (const name of PARTS) void out[name];
      return out;
    }
    makeRoom();
    const { out, state } = parts(explainRaw(...args));
    waiting.push({ answer: new WeakRef(out), state });
    return out;
  };
  const toYaml = call(raw, "toYaml");
  // What a binding's `spec.clusters` changes, as YAML comments, then the object as YAML.
  const bindingYaml = (written) => {
    const lines = ["# spec.clusters, before -> after (* changed):"];
    for (const c of written.binding.changes) {
      const mark = c.before === c.after ? " " : "*";
      lines.push(`# ${mark} ${c.cluster}: ${c.before ?? "-"} -> ${c.after ?? "-"}`);
    }
    return lines.join("\n") + "\n" + toYaml(written.resourceBinding);
  };
  return {
    ...base,
    fromObjects: base.parsed("fromObjects"),
    explain,
    toObjects: base.parsed("toObjects"),
    bindingOf: base.parsed("bindingOf"),
    toYaml,
    fromYaml: (text) => JSON.parse(call(raw, "fromYaml")(text)),
    bindingYaml,
    schedule: (input, options) =>
      isObjects(input) ? { kind: "karmada", ...explain(input, options).outcome } : base.schedule(input),
  };
}

/** The `allot/fleet` module's API: all of `allot/kubernetes`'s, and the fleet planner. */
export function fleetApi(raw) {
  const base = kubernetesApi(raw);
  // A fleet kept in the module between what-ifs: each method's answer decoded at once (the
  // next call may overwrite it).
  const fleetSession = (input, options) => {
    let session;
    try {
      session = new raw.FleetSession(input, options);
    } catch (e) {
      rethrow(e);
    }
    const parsed = (name) => (...args) => {
      try {
        return JSON.parse(ascii(session[name](...args)));
      } catch (e) {
        rethrow(e);
      }
    };
    return {
      plan: parsed("plan"),
      apply: parsed("apply"),
      readiness: parsed("readiness"),
      state: parsed("state"),
      clusters: parsed("clusters"),
      report: parsed("report"),
      policies: parsed("policies"),
      go: (k) => session.go(k),
      get at() { return session.at; },
      get steps() { return session.steps; },
      free: () => session.free(),
    };
  };
  const planSummary = call(raw, "planSummary");
  return { ...base, planFleet: base.parsed("planFleet"), readiness: base.parsed("readiness"), planSummary, fleetSession };
}
