// Every JavaScript example of the READMEs runs as written, from a fresh project with the
// packed package installed. The HTTP server example is started and sent a valid scenario, a
// bad one and an empty GET; it must answer each and keep running.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = process.env.ALLOT_ROOT;
const blocks = ["README.md", "web/README.md"].flatMap((file) =>
  [...readFileSync(join(ROOT, file), "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m, i) => ({
    name: `${file} example ${i + 1}`,
    code: m[1],
  })),
);

test("the READMEs have examples", () => assert.ok(blocks.length >= 6, `${blocks.length}`));

for (const [i, { name, code }] of blocks.entries()) {
  const file = `readme-${i}.mjs`;
  if (/\.listen\(/.test(code)) {
    test(`${name} serves, answers bad requests and keeps running`, async () => {
      writeFileSync(file, code);
      const port = Number(code.match(/\.listen\((\d+)\)/)[1]);
      const server = spawn(process.execPath, [file], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      server.stderr.on("data", (d) => (stderr += d));
      try {
        const url = `http://127.0.0.1:${port}/`;
        const ask = async (init) => {
          for (let tries = 0; ; tries++) {
            try {
              const r = await fetch(url, init);
              return { status: r.status, body: await r.text() };
            } catch (e) {
              if (tries > 100 || server.exitCode !== null) throw new Error(`${e}; server: ${stderr}`);
              await new Promise((ok) => setTimeout(ok, 50));
            }
          }
        };
        const good = { version: 1, clusters: [{ name: "a", weight: 1 }], workload: { replicas: 2 } };
        const ok = await ask({ method: "POST", body: JSON.stringify(good) });
        assert.equal(ok.status, 200, ok.body);
        assert.deepEqual(JSON.parse(ok.body).assignment, [{ name: "a", replicas: 2 }]);
        const bad = await ask({ method: "POST", body: '{"version": 1, "clusters": [{"name": "a", "weight": -1}], "workload": {"replicas": 1}}' });
        assert.equal(bad.status, 400, bad.body);
        assert.equal(JSON.parse(bad.body).code, "negative");
        const empty = await ask({ method: "GET" });
        assert.equal(empty.status, 400, empty.body);
        assert.equal(JSON.parse(empty.body).code, "invalid_input");
        const again = await ask({ method: "POST", body: JSON.stringify(good) });
        assert.equal(again.status, 200, `still serving after errors: ${again.body} ${stderr}`);
        assert.equal(server.exitCode, null, stderr);
      } finally {
        server.kill();
      }
    });
  } else {
    test(`${name} runs as written`, () => {
      writeFileSync(file, code);
      execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
    });
  }
}
