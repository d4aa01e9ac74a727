// Idempotency Lab for browsers and bundlers: the JavaScript API over the lab's core (`Lab`),
// the embeddable view (`mount`) and the `<idempotency-lab>` custom element (`element.js`, in
// its own shadow root with the styles of `embed-style.js`), all in one WebAssembly module.
// Call `await init()` once before anything else; it also defines the element. Node has its own
// entry (`node.js`), which loads the wasm from disk at import.

import initWasm, { Embed, Lab, mount } from "./idempotency_lab_web.js";
import css from "./embed-style.js";
import { defineElement, guardFreed } from "./element.js";

guardFreed([Lab, Embed]);

export { Lab, Embed, mount } from "./idempotency_lab_web.js";
export { ELEMENT_NAME, LabError } from "./element.js";

let ready = null;

/**
 * Loads the wasm (from beside this file, or from `input.module_or_path`) and defines
 * `<idempotency-lab>`. Calling it again returns the same promise.
 */
export default function init(input) {
  ready ??= initWasm(
    input ?? { module_or_path: new URL("./idempotency_lab_web_bg.wasm", import.meta.url) },
  ).then(() => {
    defineElement({ mount, css });
  });
  return ready;
}
