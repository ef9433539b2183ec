// Starts the playground: imports the module Trunk built and instantiates its wasm, both named
// by the script tag that loads this file. A file of its own rather than an inline script, so
// that a Content-Security-Policy of `script-src 'self' 'wasm-unsafe-eval'` allows the page.
const tag = document.querySelector("script[data-js][data-wasm]");
const { default: init } = await import(new URL(tag.dataset.js, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });
