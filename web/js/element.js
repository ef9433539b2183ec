// <allot-playground>: a live allot widget for documentation pages.
//
//   <script type="module">import "allot/element";</script>
//   <allot-playground preset="divide-7-replicas-2-1-1"></allot-playground>
//   <allot-playground><script type="application/json">{ "version": 1, ... }</script></allot-playground>
//
// It shows the scenario's title, an input for the replicas (or eru instances), one for each
// cluster's weight and the division method, and the outcome as a table with bars and the
// explanation; every edit reschedules at once. Presets are the names of the examples in the
// scenario documentation (docs/examples). Everything is computed by the package's `schedule`.
import { schedule } from "./index.js";

const STYLE = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1d2433; border: 1px solid #e1e4ea;
  border-radius: 6px; padding: .6rem .8rem; background: white; max-width: 44rem; }
h3 { margin: 0 0 .2rem; font-size: 1rem; } p { margin: .2rem 0 .5rem; color: #5a6378; font-size: .9rem; }
.controls { display: flex; flex-wrap: wrap; gap: .3rem .8rem; align-items: center; margin: .3rem 0; }
label { font-size: .85rem; color: #5a6378; } input { width: 4.5rem; font: inherit; padding: .1rem .3rem; }
select { font: inherit; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0; }
th, td { border-bottom: 1px solid #e1e4ea; padding: .2rem .4rem; text-align: left; }
th { font-size: .8rem; color: #5a6378; } .n { text-align: right; font-variant-numeric: tabular-nums; }
rect { fill: #3056d3; } line { stroke: #1d2433; stroke-width: 2; }
.grew { color: #1a7f37; } .shrank { color: #b42318; } .error { color: #b42318; }
details { font-size: .9rem; } li { margin: .1rem 0; }`;

const METHODS = ["webster", "remainder", "name-order"];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function bar(now, before, scale) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const w = (n) => String(Math.round((120 * Math.min(n, scale)) / Math.max(scale, 1)));
  svg.setAttribute("width", "122");
  svg.setAttribute("height", "12");
  const rect = document.createElementNS(ns, "rect");
  Object.entries({ x: 0, y: 1, height: 10, width: w(now) }).forEach(([k, v]) => rect.setAttribute(k, v));
  svg.append(rect);
  if (before > 0) {
    const line = document.createElementNS(ns, "line");
    Object.entries({ x1: w(before), x2: w(before), y1: 0, y2: 12 }).forEach(([k, v]) => line.setAttribute(k, v));
    svg.append(line);
  }
  return svg;
}

export class AllotPlayground extends HTMLElement {
  static observedAttributes = ["preset"];
  #scenario = null;
  #root = this.attachShadow({ mode: "open" });

  /** The scenario shown (a copy); setting it re-renders. */
  get scenario() {
    return this.#scenario && structuredClone(this.#scenario);
  }
  set scenario(value) {
    this.#scenario = structuredClone(value);
    this.#render();
  }

  connectedCallback() {
    const inline = this.querySelector('script[type="application/json"]');
    if (inline && !this.#scenario) {
      try {
        this.scenario = JSON.parse(inline.textContent);
      } catch (e) {
        this.#fail(`the inline scenario is not JSON: ${e.message}`);
      }
    } else if (!this.hasAttribute("preset")) {
      this.#fail('give a preset="..." attribute or an inline <script type="application/json"> scenario');
    }
  }

  async attributeChangedCallback(name, _old, id) {
    if (name !== "preset" || !id) return;
    const { presets } = await import("./presets.js");
    if (presets[id]) this.scenario = presets[id];
    else this.#fail(`no preset named "${id}"; presets: ${Object.keys(presets).join(", ")}`);
  }

  #fail(message) {
    this.#root.replaceChildren(el("style", {}, STYLE), el("p", { class: "error" }, message));
  }

  #set(mutate) {
    mutate(this.#scenario);
    this.#render();
  }

  #render() {
    const s = this.#scenario;
    if (!s) return;
    const eru = Array.isArray(s.nodes);
    const focus = this.#root.activeElement?.dataset.key;
    const controls = el("div", { class: "controls" });
    const number = (key, label, value, set) =>
      el("label", {}, `${label} `,
        el("input", { type: "number", min: "0", value: value ?? "", "data-key": key,
          oninput: (e) => { const n = Number(e.target.value); if (e.target.value !== "" && Number.isInteger(n)) this.#set((d) => set(d, n)); } }));
    const w = (s.workload ??= {});
    controls.append(eru
      ? number("count", "instances", w.count, (d, n) => (d.workload.count = n))
      : number("replicas", "replicas", w.replicas, (d, n) => (d.workload.replicas = n)));
    if (!eru) {
      (s.clusters ?? []).forEach((c, i) => {
        if (c.weight !== undefined)
          controls.append(number(`weight-${i}`, `${c.name} weight`, c.weight, (d, n) => (d.clusters[i].weight = n)));
      });
      const select = el("select", { "data-key": "method", onchange: (e) => this.#set((d) => ((d.policy ??= {}).method = e.target.value)) },
        ...METHODS.map((m) => el("option", { value: m }, m)));
      select.value = s.policy?.method ?? "webster";
      controls.append(el("label", {}, "method ", select));
    }
    const parts = [el("style", {}, STYLE), el("h3", {}, s.title ?? "allot")];
    if (s.description) parts.push(el("p", {}, s.description));
    parts.push(controls);
    try {
      parts.push(...this.#outcome(s, eru));
    } catch (e) {
      parts.push(el("p", { class: "error", "data-code": e.code ?? "" }, e.message));
    }
    this.#root.replaceChildren(...parts);
    if (focus) this.#root.querySelector(`[data-key="${focus}"]`)?.focus();
  }

  #outcome(s, eru) {
    const o = schedule(s);
    const rows = eru
      ? o.capacities.map((c) => {
          const before = s.nodes.find((n) => n.name === c.name)?.count ?? 0;
          return { name: c.name, before, now: before + (o.deploy[c.name] ?? 0) };
        })
      : o.targets.map((t) => ({
          name: t.name,
          before: s.previous?.[t.name] ?? 0,
          now: o.assignment.find((a) => a.name === t.name)?.replicas ?? 0,
        }));
    const scale = Math.max(1, ...rows.map((r) => Math.max(r.now, r.before)));
    const table = el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, eru ? "node" : "cluster"), el("th", { class: "n" }, "before"),
        el("th", { class: "n" }, eru ? "after" : "replicas"), el("th", {}, "change"))),
      el("tbody", {}, ...rows.map((r) => {
        const change = r.now > r.before ? "grew" : r.now < r.before ? "shrank" : "";
        return el("tr", { "data-name": r.name }, el("td", {}, r.name), el("td", { class: "n" }, String(r.before)),
          el("td", { class: `n replicas ${change}` }, String(r.now)), el("td", {}, bar(r.now, r.before, scale)));
      })));
    const why = eru ? o.deployment.explanation : o.trace.explanation;
    const seed = eru || !o.randomDecided ? "" : ` · seed ${o.seed}`;
    return [table, el("details", {}, el("summary", {}, `why${seed}`), el("ol", {}, ...why.map((l) => el("li", {}, l))))];
  }
}

if (!customElements.get("allot-playground")) customElements.define("allot-playground", AllotPlayground);
