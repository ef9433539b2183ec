// Starts the playground: imports the module Trunk built and instantiates its wasm, both named
// by the script tag that loads this file; for the fleet view (`?view=fleet`, or a fleet's share
// link `#f=...`), the fleet view's own module instead, which the npm package carries beside its
// worker (`pkg/fleet-widget.js`), so the playground's module never holds the fleet view nor the
// fleet view's the playground. A file of its own rather than an inline script, so that a
// Content-Security-Policy of `script-src 'self' 'wasm-unsafe-eval'` allows the page.
const tag = document.querySelector("script[data-js][data-wasm]");
const fleet =
  new URLSearchParams(location.search).get("view") === "fleet" || location.hash.startsWith("#f=");
const [js, wasm] = fleet
  ? ["pkg/fleet-widget.js", "pkg/fleet-widget_bg.wasm"]
  : [tag.dataset.js, tag.dataset.wasm];
// The wasm's download starts at once, beside the script's.
const module = fetch(new URL(wasm, document.baseURI));
const { default: init } = await import(new URL(js, document.baseURI).href);
await init({ module_or_path: module });
