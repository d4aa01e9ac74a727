// The `<idempotency-lab>` custom element, shared by the module build (`index.js`) and the
// classic-script build for decks opened from disk (`idempotency-lab.embed.js`, which
// `cargo xtask build` writes with this file inlined): an embed (`mount`) inside the element's
// own shadow root, its styles adopted there, so the host page's CSS and the lab's never meet.
// Every attribute is live, the element is driven from script (`step()`, `back()`,
// `stepTo(n)`, `inject(item, fault)`, `reset()`, `lab`) or, while it has the focus, by the keys
// a presenter's clicker sends; it fires `lab-step`, `lab-invariant` and `lab-error`.

/**
 * Every error the lab throws: an `Error` named "LabError" with a `kind`, the `field` it is
 * about and, for JSON, its `line` and `column`. The wasm throws such errors; `instanceof
 * LabError` recognises them all.
 */
export class LabError extends Error {
  constructor(kind, message, field = null, line = null, column = null) {
    super(message);
    this.name = "LabError";
    this.kind = kind;
    this.field = field;
    this.line = line;
    this.column = column;
  }

  static [Symbol.hasInstance](value) {
    return value instanceof Error && value.name === "LabError" && typeof value.kind === "string";
  }
}

/**
 * Makes every method and getter of each class (the wasm's `Lab` and `Embed`) throw a
 * `LabError` of kind "Freed" once its object was freed, instead of the glue's untyped error.
 */
export function guardFreed(classes) {
  for (const type of classes) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(type.prototype))) {
      if (name === "constructor" || name === "free" || !descriptor.configurable) continue;
      const guard = (original) =>
        function (...args) {
          if (this.__wbg_ptr === 0) {
            throw new LabError("Freed", `${type.name}.${name} was called after free()`);
          }
          return original.apply(this, args);
        };
      if (typeof descriptor.value === "function") descriptor.value = guard(descriptor.value);
      else if (descriptor.get) descriptor.get = guard(descriptor.get);
      else continue;
      Object.defineProperty(type.prototype, name, descriptor);
    }
  }
}

/** The custom element's tag. */
export const ELEMENT_NAME = "idempotency-lab";

/** The attributes the element reads; a change to any of them opens the embed again. */
export const ATTRIBUTES = [
  "lesson", "run", "seed", "mode", "modes", "step", "view", "controls", "lang", "presenter",
  "autoplay",
];

// Keys the element takes while it has the focus: forward and back, as a clicker sends them.
const FORWARD = new Set(["ArrowRight", "ArrowDown", "PageDown"]);
const BACKWARD = new Set(["ArrowLeft", "ArrowUp", "PageUp"]);

// The element's attributes as `mount`'s options: strings as they are, `step` as a number when
// it is one (anything else goes through, so `mount` names it in its error), `presenter` and
// `autoplay` by their presence; `view` is "slide" unless it says otherwise.
function optionsOf(element) {
  const options = { view: "slide" };
  for (const name of ["lesson", "run", "seed", "mode", "view", "controls", "lang"]) {
    const value = element.getAttribute(name);
    if (value !== null) options[name] = value;
  }
  // "p1:idempotent p4:naive" as { p1: "idempotent", p4: "naive" }.
  const modes = element.getAttribute("modes");
  if (modes !== null) {
    options.modes = Object.fromEntries(
      modes.split(/[\s,]+/).filter(Boolean).map((pair) => pair.split(/[:=]/)),
    );
  }
  const step = element.getAttribute("step");
  if (step !== null) options.step = /^\s*\d+\s*$/.test(step) ? Number(step) : step;
  options.presenter = element.hasAttribute("presenter");
  options.autoplay = element.hasAttribute("autoplay");
  return options;
}

// The error every method throws while the element shows no lab (a bad attribute, or not in a
// page).
function notShowing() {
  return new LabError("Unmounted", "this <idempotency-lab> shows no lab (see its lab-error event)");
}

// The styles of every element's shadow root: one constructed sheet, adopted by each.
function styleSheetOf(css) {
  if (typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  }
  return null;
}

/**
 * Defines `<idempotency-lab>` over `mount` (the wasm's), with `css` the styles of its shadow
 * root.
 */
export function defineElement({ mount, css }) {
  if (typeof customElements === "undefined" || customElements.get(ELEMENT_NAME)) return;
  const sheet = styleSheetOf(css);
  customElements.define(
    ELEMENT_NAME,
    class IdempotencyLabElement extends HTMLElement {
      static observedAttributes = ATTRIBUTES;
      #embed = null;
      #slot = null;
      #scheduled = false;

      constructor() {
        super();
        const root = this.attachShadow({ mode: "open" });
        if (sheet !== null) {
          root.adoptedStyleSheets = [sheet];
        } else {
          const style = document.createElement("style");
          style.textContent = css;
          root.append(style);
        }
        this.addEventListener("keydown", (event) => this.#key(event));
      }

      connectedCallback() {
        if (!this.hasAttribute("tabindex")) this.tabIndex = 0;
        this.#schedule();
      }

      disconnectedCallback() {
        this.#unmount();
      }

      // A changed attribute opens the embed again from the new options (once for several
      // changes made together); a corrected attribute after an error shows the lab.
      attributeChangedCallback() {
        if (this.isConnected) this.#schedule();
      }

      // Opens the embed once the current task's changes are made (an upgrade reports each
      // attribute, then the connection: one mount for all).
      #schedule() {
        if (this.#scheduled) return;
        this.#scheduled = true;
        queueMicrotask(() => {
          this.#scheduled = false;
          if (this.isConnected) this.#mount();
        });
      }

      /** One step forward; `false` when the run has ended there. */
      step() {
        return this.#shown().step();
      }

      /** One step back; returns the step shown. */
      back() {
        return this.#shown().back();
      }

      /** Shows the state after `step` steps; returns the step reached. */
      stepTo(step) {
        return this.#shown().stepTo(step);
      }

      /** Applies a fault to a waiting item, as `Lab.inject` does. */
      inject(item, fault) {
        return this.#shown().inject(item, fault);
      }

      /** The run again from its start, keeping its choices. */
      reset() {
        return this.#shown().reset();
      }

      /** A `Lab` over what the element shows now (a copy: moving it does not move the element). */
      get lab() {
        return this.#shown().lab();
      }

      #shown() {
        if (this.#embed === null) throw notShowing();
        return this.#embed;
      }

      // Forward and back while the element has the focus; a key that cannot move it (the run
      // ended, or at its start) goes on to the page, so a clicker then moves the deck.
      #key(event) {
        if (this.#embed === null || event.ctrlKey || event.altKey || event.metaKey) return;
        const target = event.composedPath()[0];
        if (target instanceof HTMLElement && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
        let moved = false;
        if (FORWARD.has(event.key)) moved = this.#embed.step();
        else if (BACKWARD.has(event.key)) {
          const before = this.#embed.cursor;
          moved = before > 0 && this.#embed.back() < before;
        }
        else return;
        if (moved) {
          event.preventDefault();
          event.stopPropagation();
        }
      }

      #unmount() {
        if (this.#embed === null) return;
        this.#embed.unmount();
        this.#embed.free();
        this.#embed = null;
      }

      #mount() {
        this.#unmount();
        for (const node of [...this.shadowRoot.children]) if (node.localName !== "style") node.remove();
        this.#slot = document.createElement("div");
        this.#slot.className = "embed-root";
        this.shadowRoot.append(this.#slot);
        const options = optionsOf(this);
        options.onEvent = (type, detail) => {
          this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
        };
        try {
          this.#embed = mount(this.#slot, options);
        } catch (error) {
          // A bad attribute: say which, in the element, and tell the page.
          const message = document.createElement("p");
          message.className = "embed-error";
          message.setAttribute("role", "alert");
          message.textContent = `Idempotency Lab: ${error.message}`;
          this.#slot.append(message);
          this.dispatchEvent(new CustomEvent("lab-error", { detail: error, bubbles: true, composed: true }));
        }
      }
    },
  );
}
