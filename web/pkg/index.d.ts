// Types of the package's entry points (`index.js` and `node.js`): the classes and types
// wasm-bindgen declares for the wasm's exports, and `init`.

export { Lab, Embed, mount } from "./idempotency_lab_web.js";
export type {
  PatternId, Mode, FaultClass, InvariantId, LabAction, LabError, LessonInfo, PendingFault,
  PendingItem, InvariantStatus, Tables, FaultBudget, CheckOptions, CheckProgress, CheckResult,
  FuzzOptions, FuzzProgress, FuzzResult, EmbedView, MountOptions, InitInput,
} from "./idempotency_lab_web.js";

/** The custom element's tag. */
export declare const ELEMENT_NAME: "idempotency-lab";

/**
 * Loads the wasm (from beside the module, or from `input.module_or_path`) and defines
 * `<idempotency-lab>`; in Node it resolves at once.
 */
export default function init(
  input?: { module_or_path: import("./idempotency_lab_web.js").InitInput | Promise<import("./idempotency_lab_web.js").InitInput> },
): Promise<void>;
