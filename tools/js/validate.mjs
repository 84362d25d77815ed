// Validates glTF files with the Khronos glTF-Validator and prints one JSON line per file:
// {"file", "errors", "warnings", "infos", "hints", "messages": [first problems]}.
// External resources (texture URIs) are read relative to each file. Exit status 0 when every
// file has no errors and no warnings, 1 otherwise, 2 on bad usage.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import validator from "gltf-validator";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node validate.mjs FILE.glb...");
  process.exit(2);
}
let clean = true;
for (const file of files) {
  const data = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(data, {
    uri: file,
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      readFile(resolve(dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  const serious = issues.messages.filter((m) => m.severity <= 1);
  if (issues.numErrors > 0 || issues.numWarnings > 0) clean = false;
  console.log(
    JSON.stringify({
      file,
      errors: issues.numErrors,
      warnings: issues.numWarnings,
      infos: issues.numInfos,
      hints: issues.numHints,
      messages: serious.slice(0, 20),
      info: issues.messages.filter((m) => m.severity > 1).slice(0, 10),
    }),
  );
}
process.exit(clean ? 0 : 1);
