import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApiDocument } from './openapi/openapi.document';

/** Writes apps/api/openapi.json; with --check, fails when the committed document differs from the code's. */
const target = resolve(process.cwd(), 'apps/api/openapi.json');
const generated = renderOpenApiDocument();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing: reported below
  }
  if (committed !== generated) {
    console.error(`${target} is out of date: run the openapi CLI without --check and commit the result`);
    process.exit(1);
  }
  console.log('openapi.json is up to date');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
