import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ALL_TOPICS } from './topics';

/**
 * `contracts:check`: the JSON Schema of every record schema is committed under libs/contracts/schemas;
 * CI fails when the code's schemas drift from them, so a schema change is always a reviewed diff
 * (additive inside a version; a breaking change is a new version). Without --check, rewrites them.
 */
const dir = resolve(__dirname, '..', '..', '..', '..', 'libs', 'contracts', 'schemas');
const check = process.argv.includes('--check');
let drift = 0;
mkdirSync(dir, { recursive: true });
for (const topic of ALL_TOPICS) {
  for (const [schemaId, schema] of Object.entries(topic.schemas)) {
    const file = join(dir, `${schemaId.replace('@', '.v')}.schema.json`);
    const generated = `${JSON.stringify({ topic: topic.name, schema: schemaId, json_schema: z.toJSONSchema(schema, { io: 'input' }) }, null, 2)}\n`;
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (generated === committed) continue;
    if (check) {
      drift += 1;
      console.error(`${file} differs from the ${schemaId} schema in code: run npm run contracts:write and review the change`);
    } else {
      writeFileSync(file, generated);
      console.log(`wrote ${file}`);
    }
  }
}
if (drift > 0) process.exit(1);
