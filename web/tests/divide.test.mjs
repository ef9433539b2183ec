// Runs against the packed npm tarball installed into a fresh project, as a user gets it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { divideWebster, version } from "allot";

test("version is a semver string", () => {
  assert.match(version(), /^\d+\.\d+\.\d+/);
});

test("divides 7 replicas 2:1:1 as Karmada's Webster does", () => {
  const shares = divideWebster({
    replicas: 7,
    clusters: [
      { name: "member1", weight: 2 },
      { name: "member2", weight: 1 },
      { name: "member3", weight: 1 },
    ],
  });
  assert.deepEqual(shares, [
    { name: "member1", replicas: 3 },
    { name: "member2", replicas: 2 },
    { name: "member3", replicas: 2 },
  ]);
});

test("replicas always sum to the request", () => {
  for (let replicas = 0; replicas < 50; replicas++) {
    const shares = divideWebster({
      replicas,
      clusters: [
        { name: "a", weight: 5 },
        { name: "b", weight: 3 },
        { name: "c", weight: 1 },
      ],
    });
    assert.equal(shares.reduce((s, x) => s + x.replicas, 0), replicas);
  }
});

test("a negative weight throws an Error with code and path", () => {
  assert.throws(
    () => divideWebster({ replicas: 3, clusters: [{ name: "a", weight: 1 }, { name: "b", weight: -2 }] }),
    (err) => err instanceof Error && err.code === "negative" && err.path === "clusters[1].weight",
  );
});

test("a duplicate name throws with code duplicate_name", () => {
  assert.throws(
    () => divideWebster({ replicas: 3, clusters: [{ name: "a", weight: 1 }, { name: "a", weight: 2 }] }),
    (err) => err.code === "duplicate_name" && err.path === "clusters[1].name",
  );
});

test("malformed input throws invalid_input instead of crashing the module", () => {
  assert.throws(() => divideWebster({ replicas: "x" }), (err) => err.code === "invalid_input");
  // The module still works afterwards.
  assert.equal(divideWebster({ replicas: 1, clusters: [{ name: "a", weight: 1 }] })[0].replicas, 1);
});

test("assign: static weights with the remainder method reports the seed it used", async () => {
  const { assign } = await import("allot");
  const placement = {
    replicas: 7,
    clusters: [{ name: "member1" }, { name: "member2" }, { name: "member3" }],
    method: "remainder",
    seed: 42,
    staticWeights: [
      { targetCluster: { clusterNames: ["member1"] }, weight: 2 },
      { targetCluster: { clusterNames: ["member2", "member3"] }, weight: 1 },
    ],
  };
  const a = assign(placement);
  const b = assign(placement);
  assert.deepEqual(a, b, "same seed, same outcome");
  assert.equal(a.seed, 42);
  const got = Object.fromEntries(a.assignment.map((x) => [x.name, x.replicas]));
  assert.equal(got.member1, 4);
  assert.equal(got.member2 + got.member3, 3);
  assert.ok(a.trace.explanation.length > 0);
});

test("assign: not enough capacity is unschedulable with the path", async () => {
  const { assign } = await import("allot");
  assert.throws(
    () => assign({ replicas: 10, strategy: "dynamicWeight", clusters: [{ name: "a", availableReplicas: 3 }] }),
    (err) => err.code === "unschedulable" && err.path === "replicas",
  );
});
