// <allot-playground>: the allot playground's embedded view, for documentation pages.
//
//   <script type="module">import "allot/element";</script>
//   <allot-playground preset="divide-7-replicas-2-1-1" editors="replicas weights method"></allot-playground>
//   <allot-playground><script type="application/json">{ "version": 1, ... }</script></allot-playground>
//
// Each element mounts the playground's own embedded view (the Yew app, `widget.js`) in its
// shadow root: the same editors, outcome, "Why", pipeline table and errors as the playground.
// Attributes:
//   preset      an example's name (docs/examples), or an inline scenario as above
//   editors     the editors shown, by name: replicas (count), weights, method, strategy,
//               workload, policy, clusters, nodes, scheduling, rules, all; none: no editor.
//               Default: replicas
//   fleet       an example fleet (docs/manifests: fleet-shop, fleet-policy, fleet-burst): the
//               fleet view instead of a scenario, its events and plans worked out in a Web
//               Worker
//   height      a CSS height; the widget scrolls inside it (default: as tall as its content)
//   playground  the playground's address, for an "open in the allot playground" link and the
//               Kubernetes editor's example manifests (or, for
//               every element of a page, <meta name="allot-playground" content="...">)
// Each module (the playground's; the fleet view's, for `fleet`) is instantiated once, however
// many elements a page has, and only when an element shows it. Every edit fires an
// `allot-change` event whose `detail.scenario` is the scenario shown.

// The playground's module (`widget.js`) and the fleet view's (`fleet-widget.js`), by name.
const modules = {};
/** The app's module (`fleet`: the fleet view's), instantiated once for the page, and the
 * stylesheet shared by every element's shadow root. */
function app(fleet) {
  const name = fleet ? "fleet" : "playground";
  modules[name] ??= Promise.all([
    fleet ? import("./fleet-widget.js") : import("./widget.js"),
    import("./widget-style.js"),
  ]).then(async ([m, css]) => {
    await m.default();
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css.default);
    return { mount: m.mount, mountFleet: m.mountFleet, sheet };
  });
  return modules[name];
}

const OBSERVED = ["preset", "editors", "playground", "fleet"];

export class AllotPlayground extends HTMLElement {
  static observedAttributes = [...OBSERVED, "height"];
  #root = this.attachShadow({ mode: "open" });
  #handle = null;
  #scenario = null;
  #given = null;
  #mounting = null;

  /** The scenario shown, as last edited (a copy); setting it shows that scenario instead. */
  get scenario() {
    return this.#scenario && structuredClone(this.#scenario);
  }
  set scenario(value) {
    this.#given = value == null ? null : JSON.stringify(value);
    this.#remount();
  }

  connectedCallback() {
    const inline = this.querySelector('script[type="application/json"]');
    if (inline && this.#given === null) this.#given = inline.textContent;
    this.#size();
    this.#remount();
  }

  disconnectedCallback() {
    this.#handle?.unmount();
    this.#handle = null;
  }

  attributeChangedCallback(name) {
    if (name === "preset") this.#given = null;
    if (name === "height") this.#size();
    else if (this.isConnected && OBSERVED.includes(name)) this.#remount();
  }

  #size() {
    const height = this.getAttribute("height");
    this.style.height = height ?? "";
    this.style.overflow = height ? "auto" : "";
  }

  // Mount once the module is there; a change while it loads mounts again with the latest.
  #remount() {
    if (!this.isConnected) return;
    const fleet = this.getAttribute("fleet");
    const mounting = (this.#mounting = app(fleet !== null).then((m) => {
      if (mounting !== this.#mounting || !this.isConnected) return;
      this.#handle?.unmount();
      this.#handle = null;
      this.#root.adoptedStyleSheets = [m.sheet];
      const root = document.createElement("div");
      root.className = "allot-widget";
      this.#root.replaceChildren(root);
      const playground =
        this.getAttribute("playground") ??
        document.querySelector('meta[name="allot-playground"]')?.getAttribute("content") ?? null;
      try {
        if (fleet !== null) {
          // The fleet's examples are served beside the book's pages' playground, else here.
          this.#handle = m.mountFleet(root, fleet, new URL(".", import.meta.url).href,
            new URL(playground ?? "..", new URL(".", import.meta.url)).href);
          return;
        }
        this.#handle = m.mount(
          root,
          this.#given === null ? (this.getAttribute("preset") ?? undefined) : undefined,
          this.#given ?? undefined,
          this.getAttribute("editors") ?? undefined,
          new URL(".", import.meta.url).href,
          playground === null ? undefined : new URL(playground, document.baseURI).href,
          (text) => {
            this.#scenario = JSON.parse(text);
            this.dispatchEvent(new CustomEvent("allot-change", { detail: { scenario: this.scenario } }));
          },
        );
      } catch (e) {
        const p = document.createElement("p");
        p.className = "error";
        p.setAttribute("role", "alert");
        p.textContent = `<allot-playground>: ${e.message}`;
        this.#root.replaceChildren(p);
      }
    }));
    return mounting;
  }
}

if (!customElements.get("allot-playground")) customElements.define("allot-playground", AllotPlayground);
