// Runs a lesson of Idempotency Lab in Node (18 or later) with the package that
// `cargo xtask build` writes into dist/pkg, naive and then idempotent, and prints each run's
// invariant report:
//
//     cargo xtask build && node examples/node.mjs [lesson-id]
//
// A project that installed the package imports "idempotency-lab" instead of the path.

import { Lab } from "../dist/pkg/node.js";

const id = process.argv[2] ?? "p1-stock-reservation";

function report(mode) {
  let lab;
  try {
    lab = Lab.lesson(id);
  } catch (error) {
    // A LabError: `kind` says what is wrong, `field` which argument.
    console.error(`${error.name} (${error.kind}, ${error.field}): ${error.message}`);
    console.error(`lessons: ${Lab.lessons().map((lesson) => lesson.id).join(", ")}`);
    process.exit(2);
  }
  lab.setMode(mode);
  const steps = lab.runToEnd();
  console.log(`${id}, ${mode}: ${steps} steps, seed ${lab.seed}`);
  for (const invariant of lab.invariants()) {
    const status = !invariant.held
      ? "VIOLATED"
      : invariant.brokeAtStep !== null
        ? "held again"
        : "held";
    const where = invariant.brokeAtStep !== null ? ` (broke at step ${invariant.brokeAtStep})` : "";
    console.log(`  ${invariant.id} ${status.padEnd(10)} ${invariant.title}${where}`);
    for (const sentence of invariant.violations) console.log(`      ${sentence}`);
  }
  const held = lab.invariants().every((invariant) => invariant.held);
  lab.free();
  return held;
}

const naiveHeld = report("naive");
const idempotentHeld = report("idempotent");
console.log(
  `\nnaive: ${naiveHeld ? "every invariant held" : "an invariant broke"}; ` +
    `idempotent: ${idempotentHeld ? "every invariant held" : "an invariant broke"}`,
);
