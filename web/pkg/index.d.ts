// Types of the package's entry points (`index.js` and `node.js`): the classes and types
// wasm-bindgen declares for the wasm's exports, `init`, the `LabError` class and the
// `<idempotency-lab>` element with its events (in `HTMLElementTagNameMap`).

import type {
  EmbedControls, EmbedView, FaultClass, InitInput, Lab, LabAction,
  LabInvariantDetail, LabStepDetail, Language, LessonId, Mode,
} from "./idempotency_lab_web.js";

export { Lab, Embed, mount } from "./idempotency_lab_web.js";
export type {
  PatternId, Mode, FaultClass, InvariantId, LessonId, Language, LabAction, LabActionName,
  FaultActionName,
  TableName, LessonInfo,
  PendingFault, PendingItem, InvariantStatus, Tables, FaultBudget, CheckOptions, CheckProgress,
  CheckResult, FuzzOptions, FuzzProgress, FuzzResult, HandlerKind, HandlerCheckOptions,
  HandlerCheckResult, EmbedView, EmbedControls, MountOptions,
  LabStepDetail, LabInvariantDetail, InitInput,
} from "./idempotency_lab_web.js";

/** What kind of wrong a `LabError` reports. */
export type LabErrorKind =
  | "BadArgument" | "UnknownLesson" | "InvalidScenario" | "InvalidTrace" | "InvalidLink"
  | "InvalidProgram" | "NotApplicable" | "RunFailed" | "MountFailed" | "Unmounted"
  /** A method of a `Lab` or an `Embed` called after its `free()`. */
  | "Freed";

/**
 * Every error the lab throws. `instanceof LabError` recognises the wasm's errors too.
 */
export declare class LabError extends Error {
  constructor(kind: LabErrorKind, message: string, field?: string | null, line?: number | null, column?: number | null);
  readonly name: "LabError";
  kind: LabErrorKind;
  /** The argument (`seed`, `options.statesMax`) or the JSON path (`requests[0].operation.lines[0].qty`). */
  field: string | null;
  /** Where in the scenario's, the trace's or the program's text, from 1. */
  line: number | null;
  column: number | null;
}

/** The custom element's tag. */
export declare const ELEMENT_NAME: "idempotency-lab";

/**
 * Loads the wasm (from beside the module, or from `input.module_or_path`) and defines
 * `<idempotency-lab>`; in Node it resolves at once.
 */
export default function init(
  input?: { module_or_path: InitInput | Promise<InitInput> },
): Promise<void>;

/** The events an `<idempotency-lab>` fires (they bubble and cross shadow roots). */
export interface IdempotencyLabEventMap extends HTMLElementEventMap {
  /** The step shown moved (a click, a key, a method, play). */
  "lab-step": CustomEvent<LabStepDetail>;
  /** An invariant broke, or holds again. */
  "lab-invariant": CustomEvent<LabInvariantDetail>;
  /** An attribute cannot be shown; the element says which until it is corrected. */
  "lab-error": CustomEvent<LabError>;
}

/**
 * `<idempotency-lab>`: a lab in its own shadow root. Attributes (each live): `lesson`, `run`
 * (a share link's fragment), `seed`, `mode`, `modes` ("p1:idempotent p4:naive"), `step`,
 * `view` ("slide" by default), `controls` ("none" | "step" | "full"), `lang`, `presenter`,
 * `autoplay`. While it has the focus, the arrows and Page Up / Page Down step it.
 */
export interface IdempotencyLabElement extends HTMLElement {
  /** One step forward; `false` when the run has ended there. */
  step(): boolean;
  /** One step back; returns the step shown. */
  back(): number;
  /** Shows the state after `step` steps; returns the step reached. */
  stepTo(step: number): number;
  /** Applies a fault to a waiting item (`Lab.pending()` names the items). */
  inject(item: string, fault: FaultClass | "clock" | LabAction): void;
  /** The run again from its start, keeping its choices. */
  reset(): void;
  /** A `Lab` over what the element shows now: a copy, which moves without moving it. */
  readonly lab: Lab;
  addEventListener<K extends keyof IdempotencyLabEventMap>(type: K, listener: (this: IdempotencyLabElement, event: IdempotencyLabEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof IdempotencyLabEventMap>(type: K, listener: (this: IdempotencyLabElement, event: IdempotencyLabEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The element's attributes, for frameworks that type them. */
export interface IdempotencyLabAttributes {
  lesson?: LessonId;
  run?: string;
  seed?: string;
  mode?: Mode;
  modes?: string;
  step?: string;
  view?: EmbedView;
  controls?: EmbedControls;
  lang?: Language;
  presenter?: boolean;
  autoplay?: boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    "idempotency-lab": IdempotencyLabElement;
  }
  interface HTMLElementEventMap {
    "lab-step": CustomEvent<LabStepDetail>;
    "lab-invariant": CustomEvent<LabInvariantDetail>;
    "lab-error": CustomEvent<LabError>;
  }
}
