// Where the package's wasm bytes go: `./dev size` runs twiggy over the module built as the
// package builds it but with its function names kept, and this script sums twiggy's rows.
//
//   node web/scripts/size.mjs twiggy-top.csv
//
// Sizes are raw code bytes per function (gzip is not additive per function); the package's
// total gzip size is what `./dev pkg` prints. The names themselves are not counted.
import { readFileSync } from "node:fs";

const rows = readFileSync(process.argv[2], "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const m = line.match(/^(.*),(\d+),([\d.]+),[^,]*,[^,]*$/);
    return m && { name: m[1].replace(/^"|"$/g, "").replace(/\[[0-9a-f]{16}\]/g, ""), size: +m[2] };
  })
  .filter((r) => r && !r.name.includes("names\"\" subsection") && !r.name.includes("names\" subsection"));

const total = rows.reduce((s, r) => s + r.size, 0);
const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} KB`;
const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;

// The area of a function: reading and writing documents (serde's derives driving allot's JSON
// reader and writer), else the innermost allot-core module named, else the crate.
function area(name) {
  if (/::de::(Deserialize|Visitor|MapAccess|SeqAccess|DeserializeSeed)\b|json::read\b/.test(name))
    return "reading documents (serde derives + json::read)";
  if (/::ser::(Serialize|SerializeStruct|SerializeMap|SerializeSeq)\b|json::write\b/.test(name))
    return "writing documents (serde derives + json::write)";
  const core = name.match(/allot_core::(\w+)(::(\w+))?/);
  if (core) return `allot_core::${core[1]}${core[3] && /^[a-z_]+$/.test(core[3]) ? `::${core[3]}` : ""}`;
  if (name.startsWith("data segment")) return "data (string constants, tables)";
  for (const [re, label] of [
    [/^(core::fmt|<.* as core::fmt)/, "core::fmt"],
    [/\bryu::/, "ryu"],
    [/\btalc::/, "talc (allocator)"],
    [/\b(wasm_bindgen|js_sys|serde_wasm_bindgen)::/, "bindings (wasm-bindgen, js-sys, serde-wasm-bindgen)"],
    [/\balloc::/, "alloc"],
    [/\bcore::/, "core"],
    [/\ballot_web::/, "allot_web"],
  ])
    if (re.test(name)) return label;
  return "other";
}

const byArea = new Map();
for (const r of rows) byArea.set(area(r.name), (byArea.get(area(r.name)) ?? 0) + r.size);
console.log(`code and data, names excluded: ${total} bytes (${rows.length} items)\n`);
console.log("by area:");
for (const [a, s] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, 30))
  console.log(`${kb(s)} ${pct(s)}  ${a}`);

// The pieces written by hand where a standard way exists, with what each is kept for.
const pieces = [
  ["allot_core::names (hash table; 1.6x faster than a sorted index on 10k clusters)", /allot_core::names::/],
  ["allot_core::order (one sort instantiation; 31 KB gzip smaller than per-site sorts)", /allot_core::order::/],
  ["allot_core::text (digits, shortest decimals)", /allot_core::text::/],
  ["json::read decimal() (14 KB gzip smaller than core's float parser)", /json::read::(decimal|pow10)\b/],
];
console.log("\nhand-written pieces:");
for (const [label, re] of pieces) {
  const s = rows.filter((r) => re.test(r.name)).reduce((n, r) => n + r.size, 0);
  console.log(`${s ? kb(s) : "inlined   "}  ${label}`);
}

console.log("\nlargest functions:");
for (const r of [...rows].sort((a, b) => b.size - a.size).slice(0, 25))
  console.log(`${kb(r.size)}  ${r.name.length > 150 ? `${r.name.slice(0, 147)}...` : r.name}`);
