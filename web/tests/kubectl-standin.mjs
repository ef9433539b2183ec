#!/usr/bin/env node
// A stand-in for kubectl in the tests of `allot plan` without -f: it appends its arguments
// (one JSON array a line) to $STANDIN_LOG and answers `get KIND -o json` with a List of the
// objects of that kind in $STANDIN_DUMP (a YAML file of docs/manifests). With
// $STANDIN_FAIL set, it fails as kubectl does when it cannot reach the server.
import { appendFileSync, readFileSync } from "node:fs";
import { fromYaml } from "allot/kubernetes";

const args = process.argv.slice(2);
if (process.env.STANDIN_LOG) appendFileSync(process.env.STANDIN_LOG, JSON.stringify(args) + "\n");
if (process.env.STANDIN_FAIL) {
  process.stderr.write(
    'E1128 12:00:00.000000 memcache.go:265] couldn\'t get current server API group list: Get "https://127.0.0.1:5443/api": dial tcp 127.0.0.1:5443: connect: connection refused\n' +
      "The connection to the server 127.0.0.1:5443 was refused - did you specify the right host or port?\n",
  );
  process.exit(1);
}
const KINDS = {
  clusters: "Cluster",
  propagationpolicies: "PropagationPolicy",
  clusterpropagationpolicies: "ClusterPropagationPolicy",
  resourcebindings: "ResourceBinding",
  clusterresourcebindings: "ClusterResourceBinding",
  priorityclasses: "PriorityClass",
  deployments: "Deployment",
  statefulsets: "StatefulSet",
  replicasets: "ReplicaSet",
  jobs: "Job",
  pods: "Pod",
};
const [verb, resource] = args;
if (verb !== "get" || !args.includes("json")) {
  process.stderr.write(`stand-in: unexpected arguments ${args.join(" ")}\n`);
  process.exit(2);
}
if (!KINDS[resource]) {
  process.stderr.write(`error: the server doesn't have a resource type "${resource}"\n`);
  process.exit(1);
}
const documents = readFileSync(process.env.STANDIN_DUMP, "utf8")
  .split(/^---[ \t]*$/m)
  .map((d) => fromYaml(d))
  .filter(Boolean);
const at = args.indexOf("--namespace");
const items = documents.filter(
  (o) => o.kind === KINDS[resource] && (at < 0 || !o.metadata.namespace || o.metadata.namespace === args[at + 1]),
);
process.stdout.write(JSON.stringify({ apiVersion: "v1", kind: "List", metadata: { resourceVersion: "" }, items }, null, 4));
