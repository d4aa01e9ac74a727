// Writes traceJson() of every built-in lesson, naive and idempotent, run to its end through
// the package's JavaScript API, as <out>/<lesson>.<mode>.json, for the Rust test to compare
// with the native core byte for byte.
//
//     node traces.mjs <dist/pkg> <out>

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, outDir] = process.argv.slice(2);
const { Lab } = await import(pathToFileURL(join(packageDir, "node.js")).href);

let written = 0;
for (const { id } of Lab.lessons()) {
  for (const mode of ["naive", "idempotent"]) {
    const lab = Lab.lesson(id);
    lab.setMode(mode);
    lab.runToEnd();
    writeFileSync(join(outDir, `${id}.${mode}.json`), lab.traceJson());
    lab.free();
    written += 1;
  }
}
console.log(`wrote ${written} traces`);
