// The package's TypeScript declarations of its documents, generated from the JSON Schema that
// the Rust types produce (web/js/allot.schema.json, checked by tests/tests/schema.rs).
//
//   node web/scripts/types.mjs          check that web/js/types.d.ts is up to date
//   node web/scripts/types.mjs --write  regenerate it
//
// Every integer crosses as a JavaScript number (JSON text), so `integer` is `number`.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const schemaFile = here("../js/allot.schema.json");
const typesFile = here("../js/types.d.ts");

// A reference with a description beside it would become a type of its own (`ResourceList1`):
// the field keeps the referenced type, whose own description documents it. A reference with
// properties beside it (a tagged enum's variant: `kind` and the variant's fields) is their
// intersection.
const notes = new Set(["description", "default", "title", "examples", "deprecated"]);
const refsOnly = (v) => {
  if (Array.isArray(v)) return v.map(refsOnly);
  if (v === null || typeof v !== "object") return v;
  const entries = Object.entries(v).map(([k, x]) => [k, refsOnly(x)]);
  if (typeof v.$ref !== "string") return Object.fromEntries(entries);
  const rest = entries.filter(([k]) => k !== "$ref" && !notes.has(k));
  if (rest.length === 0) return { $ref: v.$ref };
  return { allOf: [{ $ref: v.$ref }, Object.fromEntries(rest)] };
};
const schema = refsOnly(JSON.parse(readFileSync(schemaFile, "utf8")));
const raw = await compile(schema, "Scenario", {
  bannerComment: "",
  additionalProperties: false,
  unreachableDefinitions: true,
  strictIndexSignatures: false,
  format: true,
  style: { printWidth: 100, singleQuote: false, trailingComma: "all" },
});
// json-schema-to-typescript notes where each definition came from; that says nothing here.
const body = raw.replace(
  /\n *\*\n *\* This interface was referenced by `Scenario`'s JSON-Schema\n *\* via the `definition` "[^"]*"\./g,
  "",
).replace(/\/\*\*\n *\* This interface was referenced by `Scenario`'s JSON-Schema\n *\* via the `definition` "[^"]*"\.\n *\*\/\n/g, "");
const text =
  "// Generated from allot.schema.json by web/scripts/types.mjs; do not edit.\n" +
  "// The scenario format v1 (docs/scenario.md) and every answer, as the Rust types declare them.\n\n" +
  body;

if (process.argv.includes("--write")) {
  writeFileSync(typesFile, text);
  console.log(`wrote ${typesFile}`);
} else {
  let old = "";
  try {
    old = readFileSync(typesFile, "utf8");
  } catch {}
  if (old !== text) {
    console.error(
      "web/js/types.d.ts is not what web/js/allot.schema.json generates; run `./dev types`",
    );
    process.exit(1);
  }
  console.log("web/js/types.d.ts is up to date with web/js/allot.schema.json");
}
