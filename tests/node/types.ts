// Every export of the package, used as its types say, and a few wrong uses that tsc must
// refuse (each `@ts-expect-error` fails the check if its line compiles). Type-checked by the
// test `node_package_types_check_with_tsc` with `tsc --noEmit --strict`, never run.

import init, { ELEMENT_NAME, Embed, Lab, LabError, mount } from "idempotency-lab";
import type {
  CheckOptions, CheckProgress, CheckResult, EmbedControls, EmbedView, FaultBudget, FaultClass,
  FuzzOptions, FuzzProgress, FuzzResult, HandlerCheckOptions, HandlerCheckResult, HandlerKind,
  IdempotencyLabAttributes, IdempotencyLabElement,
  IdempotencyLabEventMap, InitInput, InvariantId, InvariantStatus, LabAction, LabActionName,
  LabErrorKind, TableName,
  LabInvariantDetail, LabStepDetail, Language, LessonId, LessonInfo, Mode, MountOptions,
  PatternId, PendingFault, PendingItem, Tables,
} from "idempotency-lab";

export async function everyExport(slot: Element, wasm: InitInput): Promise<string[]> {
  await init();
  await init({ module_or_path: wasm });
  await init({ module_or_path: Promise.resolve(wasm) });
  const tag: "idempotency-lab" = ELEMENT_NAME;

  const lessons: LessonInfo[] = Lab.lessons();
  const first: LessonInfo = lessons[0];
  const lab: Lab = Lab.lesson(first.id);
  const pattern: PatternId = "p3";
  const mode: Mode = "idempotent";
  const dropped: number[] = lab.setSeed(7);
  lab.setSeed(2n ** 60n);
  lab.setMode(mode);
  lab.setPattern(pattern, "naive");
  const moved: boolean = lab.step();
  const reached: number = lab.stepTo(3);
  const pending: PendingItem[] = lab.pending();
  const item: PendingItem | undefined = pending[0];
  if (item) {
    const fault: PendingFault = item.faults[0];
    const action: LabAction = fault.action;
    const class_: FaultClass | null = fault.fault;
    lab.inject(item.item, class_ ?? "clock");
    lab.inject(item.item, action);
    lab.inject(item.item, { action: "duplicate_message", entry: 0 });
  }
  const steps: number = lab.runToEnd();
  const cursor: number = lab.cursor;
  const ended: boolean = lab.ended;
  const seed: string = lab.seed;
  const scenarioId: string = lab.scenarioId;
  const notice: string | undefined = lab.notice;
  const invariants: InvariantStatus[] = lab.invariants();
  const russian: InvariantStatus[] = lab.invariants("ru");
  void russian;
  const broken: InvariantId[] = invariants.filter((status) => !status.held).map((status) => status.id);
  const brokeAt: (number | null)[] = invariants.map((status) => status.brokeAtStep);
  const tables: Tables = lab.tables();
  const orders: Record<string, unknown>[] = tables["orders"];
  const table: TableName = "idempotency_keys";
  const actionName: LabActionName = "crash_consumer_after_commit";
  void tables[table], actionName;
  const trace: string = lab.traceJson();
  const diagram: string = lab.mermaid();
  const link: string = lab.shareLink();

  const again: Lab[] = [Lab.fromLink(link), Lab.fromTrace(trace), Lab.fromScenario("{}")];
  const budget: FaultBudget = { F1: 1, F7: 2 };
  const controller = new AbortController();
  const checkOptions: CheckOptions = { faults: budget, statesMax: 1000, depthMax: 40, language: "ru", signal: controller.signal };
  const check: CheckResult = await lab.check(checkOptions, (progress: CheckProgress) => {
    const explored: number = progress.statesExplored + progress.uniqueStates + progress.depthReached + progress.frontierLen;
    void explored;
  });
  const checkOutcome: "proved" | "violated" | "bounded" | "cancelled" = check.outcome;
  const counterexample: Lab | null = check.counterexample === null ? null : Lab.fromTrace(check.counterexample);
  await lab.check({ faults: "lesson" });
  await lab.check({ faults: "none" });
  await lab.check();
  const fuzzOptions: FuzzOptions = { cases: 16, seed: 3n, signal: controller.signal };
  const fuzz: FuzzResult = await lab.fuzz(fuzzOptions, (progress: FuzzProgress) => {
    const done: boolean = progress.casesRun >= progress.cases || progress.failed;
    void done;
  });
  await lab.fuzz({ cases: 8, seed: 1 });
  await lab.fuzz();
  const handlerOptions: HandlerCheckOptions = {
    lesson: "p4-inbox-consumer", seed: 0, statesMax: 200000, depthMax: 60, language: "ru",
    signal: controller.signal,
  };
  const judged: HandlerCheckResult = await Lab.checkHandler("{}", handlerOptions, (progress: CheckProgress) => {
    void progress.uniqueStates;
  });
  const handler: HandlerKind = judged.handler;
  const why: string | null = judged.why;
  const judgedOutcome: "proved" | "violated" | "bounded" | "cancelled" = judged.outcome;
  await Lab.checkHandler("{}");
  const shrunk: string | null = fuzz.shrunkSeed;
  const violated: InvariantId[] = fuzz.violated;

  try {
    Lab.lesson("no-such-lesson");
  } catch (error) {
    if (error instanceof LabError) {
      const where: [string | null, number | null, number | null] = [error.field, error.line, error.column];
      const kind: LabErrorKind = error.kind;
      void where, kind;
    }
  }
  const made: LabError = new LabError("BadArgument", "seed must be a number", "seed");
  const lesson: LessonId = "p4-inbox-consumer";
  const language: Language = "ru";

  // The element: typed by its tag, its methods and its events.
  const element: IdempotencyLabElement = document.createElement("idempotency-lab");
  const found: IdempotencyLabElement | null = document.querySelector("idempotency-lab");
  const stepped: boolean = element.step();
  const back: number = element.back();
  const at: number = element.stepTo(4);
  element.inject("message-0", "F1");
  element.reset();
  const shown: Lab = element.lab;
  shown.free();
  element.addEventListener("lab-step", (event) => {
    const detail: LabStepDetail = event.detail;
    const moved_to: number = detail.step + detail.steps + (detail.ended ? 1 : 0);
    void moved_to;
  });
  element.addEventListener("lab-invariant", (event) => {
    const detail: LabInvariantDetail = event.detail;
    const id: InvariantId = detail.id;
    void id, detail.held, detail.title;
  });
  element.addEventListener("lab-error", (event) => {
    const kind: LabErrorKind = event.detail.kind;
    void kind;
  });
  document.body.addEventListener("lab-step", (event) => void event.detail.step);
  const events: keyof IdempotencyLabEventMap = "lab-invariant";
  const controls: EmbedControls = "none";
  const attributes: IdempotencyLabAttributes = { lesson, lang: language, controls, view: "slide", autoplay: true };
  void found, stepped, back, at, made, events, attributes;

  const view: EmbedView = "compare";
  const options: MountOptions = { lesson: first.id, mode: "naive", step: 12, view, lang: "ru", presenter: true };
  const slide: MountOptions = {
    run: link, seed: 7n, modes: { p1: "idempotent", p4: "naive" }, view: "slide", controls: "step",
    autoplay: true, onEvent: (type, detail) => void [type, detail],
  };
  mount(slot, slide).free();
  const embed: Embed = mount(slot, options);
  const bare: Embed = mount(slot, {});
  embed.unmount();
  bare.free();
  for (const other of again) other.free();
  counterexample?.free();
  lab.free();

  // @ts-expect-error a seed is a number or a bigint
  lab.setSeed("7");
  // @ts-expect-error there is no pattern p5
  lab.setPattern("p5", "naive");
  // @ts-expect-error a mode is naive or idempotent
  lab.setMode("safe");
  // @ts-expect-error stepTo takes a step number
  lab.stepTo("3");
  // @ts-expect-error F0 is not a fault class
  const no_fault: FaultClass = "F0";
  // @ts-expect-error the cursor is read-only
  lab.cursor = 4;
  // @ts-expect-error a lab comes from its static constructors
  new Lab();
  // @ts-expect-error statesMax is a number
  await lab.check({ statesMax: "1000" });
  // @ts-expect-error a handler check's lesson is a lesson id
  await Lab.checkHandler("{}", { lesson: 4 });
  // @ts-expect-error fuzz's options have no statesMax
  await lab.fuzz({ statesMax: 10 });
  // @ts-expect-error a view is slide, diagram, compare or full
  mount(slot, { view: "slides" });
  // @ts-expect-error controls are none, step or full
  mount(slot, { controls: "all" });
  // @ts-expect-error there is no such lesson
  const no_lesson: LessonId = "p9-unknown";
  // @ts-expect-error a language is en or ru
  mount(slot, { lang: "de" });
  // @ts-expect-error there is no table called payments
  const no_table: TableName = "payments";
  // @ts-expect-error an action is named as the core names it
  lab.inject("message-0", { action: "duplicate", entry: 0 });
  void no_table;
  // @ts-expect-error the element's step takes no argument
  element.step(3);
  void no_lesson;
  // @ts-expect-error mount takes an element
  mount("#slot", {});
  void no_fault;

  return [
    tag, String(moved), String(reached), String(steps), String(cursor), String(ended), seed,
    scenarioId, notice ?? "", broken.join(), brokeAt.join(), String(orders.length), diagram,
    checkOutcome, shrunk ?? "", violated.join(), String(check.brokenAtStep ?? fuzz.brokenAtStep),
    dropped.join(), handler, why ?? "", judgedOutcome,
  ];
}
