// Idempotency Lab for Node 18 or later: the same module as the browser's, its wasm read
// from beside this file at import, so `Lab` is ready at once (`init()` is there for code
// shared with browsers and resolves at once). `mount` needs a DOM and refuses without one.

import { readFileSync } from "node:fs";
import { Embed, Lab, initSync } from "./idempotency_lab_web.js";
import { guardFreed } from "./element.js";

initSync({ module: readFileSync(new URL("./idempotency_lab_web_bg.wasm", import.meta.url)) });
guardFreed([Lab, Embed]);

export { Lab, Embed, mount } from "./idempotency_lab_web.js";
export { ELEMENT_NAME, LabError } from "./element.js";

/** Nothing to load in Node: the wasm is ready at import. */
export default function init() {
  return Promise.resolve();
}
