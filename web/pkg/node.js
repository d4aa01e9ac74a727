// Idempotency Lab for Node 18 or later: the same module as the browser's, its wasm read
// from beside this file at import, so `Lab` is ready at once (`init()` is there for code
// shared with browsers and resolves at once). `mount` needs a DOM and refuses without one.
// Bundled into an app's own file (esbuild, webpack), the wasm is no longer beside it: it is
// then found through the package's exports map from the bundle's place, as Node resolves
// `idempotency-lab/idempotency_lab_web_bg.wasm`.

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Embed, Lab, initSync } from "./idempotency_lab_web.js";
import { guardFreed } from "./element.js";

function wasmPath() {
  const beside = fileURLToPath(new URL("./idempotency_lab_web_bg.wasm", import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve("idempotency-lab/idempotency_lab_web_bg.wasm");
}

initSync({ module: readFileSync(wasmPath()) });
guardFreed([Lab, Embed]);

export { Lab, Embed, mount } from "./idempotency_lab_web.js";
export { ELEMENT_NAME, LabError } from "./element.js";

/** Nothing to load in Node: the wasm is ready at import. */
export default function init() {
  return Promise.resolve();
}
