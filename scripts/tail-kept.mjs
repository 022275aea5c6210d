#!/usr/bin/env node
// Never past the value, on a labelled corpus: every case's text and each of its secrets,
// wrapped in a one-line document with a tail after it (a JSON string with its line breaks
// escaped, the same with spaces for line breaks, a Python dict's repr), redacted by this
// build's rules; prints the documents whose tail did not come through whole.
//
//   node scripts/tail-kept.mjs ../shared/redaction-corpus
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
if (dir === undefined) {
  console.error("usage: node scripts/tail-kept.mjs CORPUS_DIR");
  process.exit(64);
}
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { redactText } = await import(
  pathToFileURL(path.join(here, "packages/transforms/dist/index.js")).href
);
const read = (file) =>
  readFileSync(path.join(dir, file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const items = Array.from({ length: 50 }, (_, i) => `{"id":${i},"v":"x${i}"}`).join(",");
const tail = `,"tail":[${items}]}`;
const wraps = [
  (text) => [JSON.stringify({ log: text }).slice(0, -1) + tail, tail],
  (text) => [JSON.stringify({ log: text.replace(/\n/g, " ") }).slice(0, -1) + tail, tail],
  (text) => {
    const single = tail.replaceAll('"', "'");
    return [`{'log': '${text.replace(/\n/g, " ").replace(/'/g, "\\'")}'${single}`, single];
  },
];
let lost = 0;
let documents = 0;
for (const file of ["dev-secrets.jsonl", "dev-negatives.jsonl"]) {
  for (const c of read(file)) {
    for (const text of [c.text, ...(c.secrets ?? [])]) {
      for (const wrap of wraps) {
        const [doc, end] = wrap(text);
        documents++;
        const out = redactText(doc);
        if (out.endsWith(end)) continue;
        lost++;
        console.log(`${c.id}\n  in:  ${doc.slice(0, 160)}\n  out: ${out.slice(0, 160)}`);
      }
    }
  }
}
console.log(`tail lost in ${lost} of ${documents} documents`);
