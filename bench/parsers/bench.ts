import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runNportBench } from './nport.bench';

/*
 * `npm run bench:parsers`: the parser benches side by side in one run: the inline-XBRL segment
 * extraction bench (ixbrl.bench.js, when built) in a child process, then the N-PORT bench.
 */
async function main(): Promise<number> {
  let code = 0;
  const ixbrl = join(__dirname, 'ixbrl.bench.js');
  if (existsSync(ixbrl)) {
    console.log('iXBRL segment extraction');
    const r = spawnSync(process.execPath, [ixbrl], { stdio: 'inherit' });
    if (r.status !== 0) code = 1;
  } else {
    console.log(`iXBRL segment extraction: ${ixbrl} not built, skipped`);
  }
  if (!(await runNportBench())) code = 1;
  return code;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
