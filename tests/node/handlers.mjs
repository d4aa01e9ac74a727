// Judges every valid example handler program (`examples/programs/`) through the package's
// `Lab.checkHandler`, as a demo would from JavaScript, and writes each `HandlerCheckResult` as
// <out>/<program>.json (one program also in Russian, as <program>.ru.json), for the Rust test
// to compare with the native judge: the same verdict, state counts, sentence on why and
// counterexample trace, byte for byte.
//
//     node handlers.mjs <dist/pkg> <out> <program.json>...

import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, outDir, ...programs] = process.argv.slice(2);
const { Lab } = await import(pathToFileURL(join(packageDir, "node.js")).href);

let progressCalls = 0;
for (const path of programs) {
  const name = basename(path, ".json");
  const text = readFileSync(path, "utf8");
  const result = await Lab.checkHandler(text, {}, () => { progressCalls += 1; });
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify(result));
}
const [first] = programs;
const russian = await Lab.checkHandler(readFileSync(first, "utf8"), { language: "ru" });
writeFileSync(join(outDir, `${basename(first, ".json")}.ru.json`), JSON.stringify(russian));
const aborted = await Lab.checkHandler(readFileSync(first, "utf8"), { signal: AbortSignal.abort() });
console.log(JSON.stringify({ judged: programs.length, progressCalls, aborted: aborted.outcome }));
