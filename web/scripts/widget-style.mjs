// Write the playground's stylesheet (www/style.css) as a module for <allot-playground>, which
// adopts it into each shadow root: no request of its own, and bundlers treat it as code, not as
// a stray .css asset. rem means the root font size, which a host page sets as it likes
// (mdBook's is 10px): in the widget's copy it means the widget's own base size (--rem, set on
// :host).
//
//   node web/scripts/widget-style.mjs www/style.css > web/pkg/widget-style.js
import { readFileSync } from "node:fs";

const css = readFileSync(process.argv[2], "utf8").replace(/(\d*\.?\d+)rem\b/g, "calc($1 * var(--rem))");
console.log("// The playground's stylesheet, for <allot-playground>'s shadow roots (generated).");
console.log(`export default ${JSON.stringify(css)};`);
