// Copies the root contract beside the compiled code, so the built package serves what it was built from.
import fs from 'node:fs';
const from = new URL('../../openapi.yaml', import.meta.url);
const to = new URL('../dist/openapi.yaml', import.meta.url);
fs.copyFileSync(from, to);
fs.chmodSync(new URL('../dist/main.js', import.meta.url), 0o755);
