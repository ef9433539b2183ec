// The fleet view's worker: the `allot/fleet` module and one fleet session, off the page's
// main thread, so that reading a large dump or planning a what-if never freezes the page.
//
//   const worker = new Worker(new URL("allot/fleet-worker.js", import.meta.url), { type: "module" });
//   worker.postMessage({ id: 1, op: "open", input: dumpText, options: {}, history: [], at: 0 });
//   worker.onmessage = ({ data }) => { /* { id, ok, text, ms } or { id, ok: false, error } */ };
//
// Requests, each answered once with its `id`:
//   open  {input, options, history, at}  read the dump (YAML or JSON text, or objects), then
//         apply each what-if of `history` in turn and go to step `at`
//   plan  {whatIf}   the plan of a what-if over the fleet as it is, the fleet left as it is
//   apply {whatIf}   the same, and the fleet after it becomes a step of the history
//   go    {k}        make step k of the history the fleet as it is
//   readiness {ask, workloads}  every failure of the fleet as it is (`{each, select}` and
//         what-if fields, as the package's `readiness`), worst first, the fleet left as it is;
//         `workloads: false` leaves each row's `workloads` empty (most of the answer's text: a
//         page that shows the rows alone then reads a few hundred kB, not megabytes)
// While a request works, messages `{id, progress}` come before its answer: `{bytes}` as an
// open starts reading the dump, then `{done, total}` (bindings the scheduler has taken of those
// waiting, at most every 50 ms) as a what-if is planned, with `{step, steps}` while an open
// replays its history, and `{done, total, failures: true}` (failures planned of how many) as
// a readiness is answered. A request is stopped by terminating the worker.
// An answer's `text` is JSON: `{plan?, state?, clusters?, policies, at, steps, report?}` (for
// readiness `{readiness}`, the package's answer): `plan` for
// plan and apply, and for open when it replayed a history (the last step's); `state` the fleet
// as it is for open and go; for apply only `clusters`, every cluster as it is (the bindings
// that changed are the plan's: a large fleet's whole state is not sent again); `policies` the
// PropagationPolicies and ClusterPropagationPolicies as they are. Text rather than objects: the page reads it with its own JSON reader, and a string
// crosses to the page without a structured clone of every object. `ms` is the time the
// request took in the worker.
import init, * as raw from "./allot_fleet.js";

const ready = init({ module_or_path: new URL("./allot_fleet_bg.wasm", import.meta.url) });
const decoder = new TextDecoder();
const text = (bytes) => decoder.decode(bytes);

let session = null;

function answer(session, plan, report, whole = true) {
  const parts = [
    whole ? `"state":${text(session.state())}` : `"clusters":${text(session.clusters())}`,
    `"policies":${text(session.policies())}`,
    `"at":${session.at}`,
    `"steps":${session.steps}`,
  ];
  if (plan !== undefined) parts.push(`"plan":${plan}`);
  if (report !== undefined) parts.push(`"report":${report}`);
  return `{${parts.join(",")}}`;
}

function handle(data) {
  // At most one report every 50 ms (and the last): each is a render on the page, whose main
  // thread must stay free for the user (Cancel) while the worker computes.
  let last = -Infinity;
  const progress = (more) => (done, total) => {
    const now = performance.now();
    if (now - last < 50 && done < total) return;
    last = now;
    self.postMessage({ id: data.id, progress: { done, total, ...more } });
  };
  switch (data.op) {
    case "open": {
      session?.free();
      session = null;
      const history = data.history ?? [];
      self.postMessage({ id: data.id, progress: { bytes: data.input?.length ?? 0 } });
      const next = new raw.FleetSession(data.input, data.options ?? {});
      let plan;
      try {
        for (const [k, whatIf] of history.entries()) {
          plan = text(next.apply(whatIf, progress({ step: k + 1, steps: history.length })));
        }
        if (data.at !== undefined && data.at !== next.steps - 1) {
          next.go(data.at);
          plan = undefined;
        }
      } catch (e) {
        next.free();
        throw e;
      }
      session = next;
      return answer(session, plan, text(session.report()));
    }
    case "plan":
      return `{"plan":${text(need().plan(data.whatIf, progress({})))}}`;
    case "apply": {
      const plan = text(need().apply(data.whatIf, progress({})));
      return answer(session, plan, undefined, false);
    }
    case "readiness": {
      const answer = text(need().readiness(data.ask ?? {}, progress({ failures: true })));
      return `{"readiness":${data.workloads === false ? withoutWorkloads(answer) : answer}}`;
    }
    case "go":
      need().go(data.k);
      return answer(session);
    default:
      throw new Error(`unknown request ${data.op}`);
  }
}

/** A readiness answer's JSON text without each row's affected workloads (before and after). */
function withoutWorkloads(answer) {
  const r = JSON.parse(answer);
  for (const row of [...r.rows, ...(r.before?.rows ?? [])]) row.workloads = [];
  return JSON.stringify(r);
}

function need() {
  if (!session) throw Object.assign(new Error("no fleet loaded"), { code: "internal", path: "" });
  return session;
}

self.onmessage = async ({ data }) => {
  const start = performance.now();
  try {
    await ready;
    const out = handle(data);
    self.postMessage({ id: data.id, ok: true, text: out, ms: performance.now() - start });
  } catch (e) {
    self.postMessage({
      id: data.id,
      ok: false,
      error: { message: String(e?.message ?? e), code: e?.code ?? "internal", path: e?.path ?? "" },
      ms: performance.now() - start,
    });
  }
};
