// `allot/kubernetes` for browsers and bundlers: the main API plus Kubernetes and Karmada
// objects in (YAML or JSON) and out, from its own, larger module (it carries a YAML reader).
import init, * as raw from "./allot_kubernetes.js";
import { kubernetesApi } from "./api.js";

await init({ module_or_path: new URL("./allot_kubernetes_bg.wasm", import.meta.url) });

export { AllotError, isObjects } from "./api.js";
export const {
  schedule, scheduleJson, estimate, divide, filter, select, capacity, deploy,
  validateResourceModels, parseQuantity, version, fromObjects, explain, toObjects, toYaml, fromYaml, bindingOf, bindingYaml,
} = kubernetesApi(raw);
