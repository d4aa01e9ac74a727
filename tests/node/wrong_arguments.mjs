// Calls every export of the package with wrong arguments (wrong types, missing, out of range,
// malformed JSON or link, an unknown lesson, an item that does not wait, a fault that does not
// apply) and prints one JSON line per call: what it threw (name, kind, field) or "no error".
// The Rust test `node_package_refuses_wrong_arguments` holds the expected kind and field of
// each and checks that nothing panicked (a wasm `RuntimeError`, "unreachable").
//
//     node wrong_arguments.mjs <dist/pkg>

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir] = process.argv.slice(2);
const { Lab, mount } = await import(pathToFileURL(join(packageDir, "node.js")).href);

const lesson = Lab.lessons()[0].id;
const lab = () => Lab.lesson(lesson);
const started = () => {
  const run = lab();
  run.stepTo(1);
  return run;
};
const waiting = started().pending()[0].item;
const link = lab().shareLink();
const trace = lab().traceJson();
const program = (name) =>
  readFileSync(new URL(`../../examples/programs/${name}.json`, import.meta.url), "utf8");
const seedConsumer = program("consumer-seed");

const cases = {
  "lesson()": () => Lab.lesson(),
  "lesson(7)": () => Lab.lesson(7),
  "lesson(unknown)": () => Lab.lesson("no-such-lesson"),
  "fromScenario()": () => Lab.fromScenario(),
  "fromScenario(malformed)": () => Lab.fromScenario('{"id": "x",\n  "requests": ['),
  "fromScenario(bad field)": () => Lab.fromScenario(JSON.stringify({ ...JSON.parse(trace).scenario, seed_policy: 5, requests: [{ bogus: true }] })),
  "fromLink(42)": () => Lab.fromLink(42),
  "fromLink(malformed)": () => Lab.fromLink("#v=2&s=%%%"),
  "fromLink(truncated)": () => Lab.fromLink(link.slice(0, link.length - 6)),
  "fromTrace({})": () => Lab.fromTrace({}),
  "fromTrace(malformed)": () => Lab.fromTrace("[1, 2"),
  "fromTrace(version)": () => Lab.fromTrace(JSON.stringify({ ...JSON.parse(trace), format_version: 999 })),
  "setSeed()": () => lab().setSeed(),
  "setSeed(-1)": () => lab().setSeed(-1),
  "setSeed(1.5)": () => lab().setSeed(1.5),
  "setSeed(2^53)": () => lab().setSeed(2 ** 53),
  "setSeed(2n^64)": () => lab().setSeed(2n ** 64n),
  "setSeed('7')": () => lab().setSeed("7"),
  "setPattern(p5)": () => lab().setPattern("p5", "naive"),
  "setPattern(p1, safe)": () => lab().setPattern("p1", "safe"),
  "setPattern()": () => lab().setPattern(),
  "setMode(1)": () => lab().setMode(1),
  "setMode()": () => lab().setMode(),
  "stepTo(-1)": () => lab().stepTo(-1),
  "stepTo('3')": () => lab().stepTo("3"),
  "stepTo(NaN)": () => lab().stepTo(NaN),
  "stepTo()": () => lab().stepTo(),
  "inject()": () => started().inject(),
  "inject(unknown item)": () => started().inject("request-99", "F1"),
  "inject(F13)": () => started().inject(waiting, "F13"),
  "inject(fault not on item)": () => started().inject(waiting, "F12"),
  "inject(malformed action)": () => started().inject(waiting, { NoSuchAction: {} }),
  "inject(missing fault)": () => started().inject(waiting),
  "check(options 5)": () => lab().check(5),
  "check(statesMax 0)": () => lab().check({ statesMax: 0 }),
  "check(statesMax huge)": () => lab().check({ statesMax: 1e12 }),
  "check(depthMax string)": () => lab().check({ depthMax: "9" }),
  "check(language xx)": () => lab().check({ language: "xx" }),
  "check(faults array)": () => lab().check({ faults: [] }),
  "check(faults F13)": () => lab().check({ faults: { F13: 1 } }),
  "check(faults F1 -1)": () => lab().check({ faults: { F1: -1 } }),
  "check(signal 3)": () => lab().check({ signal: 3 }),
  "check(onProgress 1)": () => lab().check({}, 1),
  "fuzz(options [])": () => lab().fuzz([]),
  "fuzz(cases 0)": () => lab().fuzz({ cases: 0 }),
  "fuzz(cases 2.5)": () => lab().fuzz({ cases: 2.5 }),
  "fuzz(seed -3)": () => lab().fuzz({ seed: -3 }),
  "fuzz(signal {})": () => lab().fuzz({ signal: {} }),
  "fuzz(onProgress string)": () => lab().fuzz({}, "go"),
  "checkHandler()": () => Lab.checkHandler(),
  "checkHandler(malformed)": () => Lab.checkHandler('{"format_version": 1,\n  "blocks": ['),
  "checkHandler(unknown block)": () => Lab.checkHandler(seedConsumer.replace('"begin"', '"start"')),
  "checkHandler(commit without begin)": () => Lab.checkHandler(program("invalid-commit-without-begin")),
  "checkHandler(version)": () => Lab.checkHandler(seedConsumer.replace('"format_version": 1', '"format_version": 99')),
  "checkHandler(lesson unknown)": () => Lab.checkHandler(seedConsumer, { lesson: "no-such-lesson" }),
  "checkHandler(language de)": () => Lab.checkHandler(seedConsumer, { language: "de" }),
  "checkHandler(statesMax 0)": () => Lab.checkHandler(seedConsumer, { statesMax: 0 }),
  "checkHandler(onProgress 1)": () => Lab.checkHandler(seedConsumer, {}, 1),
  "invariants(de)": () => lab().invariants("de"),
  "invariants(7)": () => lab().invariants(7),
  "mount(no element)": () => mount("#slot", {}),
  "mount()": () => mount(),
};

for (const [name, call] of Object.entries(cases)) {
  let outcome;
  try {
    const value = call();
    if (value instanceof Promise) value.catch(() => {});
    outcome = { name, threw: null };
  } catch (error) {
    outcome = {
      name,
      threw: error?.name ?? typeof error,
      kind: error?.kind ?? null,
      field: error?.field ?? null,
      line: error?.line ?? null,
      message: String(error?.message ?? error),
    };
  }
  console.log(JSON.stringify(outcome));
}
