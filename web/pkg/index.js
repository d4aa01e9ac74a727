// Idempotency Lab for browsers and bundlers: the JavaScript API over the lab's core (`Lab`),
// the embeddable view (`mount`) and the `<idempotency-lab>` custom element, all in one
// WebAssembly module. Call `await init()` once before anything else; it also defines the
// element. Node has its own entry (`node.js`), which loads the wasm from disk at import.

import initWasm, { mount } from "./idempotency_lab_web.js";

export { Lab, Embed, mount } from "./idempotency_lab_web.js";

/** The custom element's tag. */
export const ELEMENT_NAME = "idempotency-lab";

let ready = null;

/**
 * Loads the wasm (from beside this file, or from `input.module_or_path`) and defines
 * `<idempotency-lab>`. Calling it again returns the same promise.
 */
export default function init(input) {
  ready ??= initWasm(
    input ?? { module_or_path: new URL("./idempotency_lab_web_bg.wasm", import.meta.url) },
  ).then(() => {
    defineElement();
  });
  return ready;
}

// The element's attributes as `mount`'s options: strings as they are, `step` as a number
// when it is one (anything else goes through, so `mount` names it in its error), and
// `presenter` by its presence.
function optionsOf(element) {
  const options = {};
  for (const name of ["lesson", "mode", "view", "lang"]) {
    const value = element.getAttribute(name);
    if (value !== null) options[name] = value;
  }
  const step = element.getAttribute("step");
  if (step !== null) options.step = /^\s*\d+\s*$/.test(step) ? Number(step) : step;
  options.presenter = element.hasAttribute("presenter");
  return options;
}

function defineElement() {
  if (typeof customElements === "undefined" || customElements.get(ELEMENT_NAME)) return;
  customElements.define(
    ELEMENT_NAME,
    class IdempotencyLabElement extends HTMLElement {
      static observedAttributes = ["lesson", "mode", "step", "view", "lang", "presenter"];
      #embed = null;

      connectedCallback() {
        this.#mount();
      }

      disconnectedCallback() {
        this.#unmount();
      }

      // A changed attribute starts the embed again from the new options.
      attributeChangedCallback() {
        if (this.#embed !== null) this.#mount();
      }

      #unmount() {
        if (this.#embed === null) return;
        this.#embed.unmount();
        this.#embed.free();
        this.#embed = null;
      }

      #mount() {
        this.#unmount();
        this.replaceChildren();
        try {
          this.#embed = mount(this, optionsOf(this));
        } catch (error) {
          // A bad attribute: say which, in the element, and tell the page.
          const message = document.createElement("p");
          message.className = "embed-error";
          message.setAttribute("role", "alert");
          message.textContent = `Idempotency Lab: ${error.message}`;
          this.append(message);
          this.dispatchEvent(new CustomEvent("lab-error", { detail: error }));
        }
      }
    },
  );
}
