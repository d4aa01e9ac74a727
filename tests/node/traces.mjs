// Writes traceJson() of every built-in lesson, naive and idempotent, run to its end through
// the package's JavaScript API, as <out>/<lesson>.<mode>.json, and its invariants() in each
// language as <out>/<lesson>.<mode>.invariants.<language>.json, for the Rust test to compare
// with the native core.
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
    for (const language of ["en", "ru"]) {
      const path = join(outDir, `${id}.${mode}.invariants.${language}.json`);
      writeFileSync(path, JSON.stringify(lab.invariants(language)));
    }
    lab.free();
    written += 1;
  }
}
console.log(`wrote ${written} traces`);
