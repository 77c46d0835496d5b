import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runNportBench } from './nport.bench';

/*
 * `npm run bench:parsers`: the parser benches side by side in one run: the inline-XBRL segment
 * extraction bench, the N-PORT bench, the Form 4 bench and the slide-deck PDF bench (each
 * standalone script in a child process).
 */

/** Runs one standalone bench script of this folder in a child process; false when it failed. */
function runScript(title: string, script: string): boolean {
  const path = join(__dirname, script);
  if (!existsSync(path)) {
    console.log(`${title}: ${path} not built, skipped`);
    return true;
  }
  console.log(`\n${title}`);
  return spawnSync(process.execPath, [path], { stdio: 'inherit' }).status === 0;
}

async function main(): Promise<number> {
  let code = 0;
  if (!runScript('iXBRL segment extraction', 'ixbrl.bench.js')) code = 1;
  console.log('\nN-PORT holdings');
  if (!(await runNportBench())) code = 1;
  if (!runScript('Form 4 ownership documents', 'form4.bench.js')) code = 1;
  if (!runScript('Slide-deck PDF text', 'decks.bench.js')) code = 1;
  return code;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
