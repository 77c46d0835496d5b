import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_TOPICS } from './topics';
import { validateRecord } from './validate';

/**
 * Real example records (made by the producers' mappers from the fixture files) are valid against
 * the schema they name, on a topic that accepts it. File names: `<type>@<version>.<label>.json`.
 */
const DIR = join(__dirname, 'examples');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

describe('example records', () => {
  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s is valid against its schema', (file) => {
    const record = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { schema?: unknown };
    const schemaId = file.split('.')[0];
    expect(record.schema).toBe(schemaId);
    const topics = ALL_TOPICS.filter((t) => schemaId !== undefined && schemaId in t.schemas);
    expect(topics.length).toBeGreaterThan(0);
    for (const topic of topics) {
      const result = validateRecord(topic, record);
      expect(result.ok ? 'ok' : result.error).toBe('ok');
    }
  });
});
