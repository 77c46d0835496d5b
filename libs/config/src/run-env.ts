import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { ConfigError, loadConfig } from './config';

/**
 * Operator CLIs (keys, db:migrate, ops, the projector's lag) run from a plain shell after
 * `npm start`, which writes the settings it generated or settled on under the checkout's `.run/`
 * (`secrets.env`: API_KEY_PEPPER, CURSOR_SECRET, ...; `ops.env`: DATABASE_URL, KAFKA_BROKERS, ...).
 * These helpers read them. The environment wins over the files, so CI, containers and an operator's
 * own exports are never overridden.
 */

/** `KEY=value` lines; `#` comments and blank lines skipped; one pair of surrounding quotes removed. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quote = value[0];
    if (value.length >= 2 && (quote === '"' || quote === "'") && value.endsWith(quote)) value = value.slice(1, -1);
    out[m[1]!] = value;
  }
  return out;
}

/**
 * The checkout a script belongs to: the nearest directory above `from` holding both `package.json`
 * and `scripts/run.sh`. Found from the script's own location, not the working directory, so a CLI
 * works from any directory. Null when there is none (an installed copy without the run script).
 */
export function findCheckoutRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scripts', 'run.sh'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

export interface RunEnvResult {
  /** The `.run/*.env` files read, in order. */
  files: string[];
  /** Variables taken from them (those the environment did not set already). */
  applied: string[];
}

/**
 * Reads every `<checkout>/.run/*.env` (sorted by name) into `env` under what it already holds:
 * a variable set in `env` is never replaced, and the first file naming a variable wins.
 * `from` defaults to this module's directory, which sits inside the checkout (source or dist).
 */
export function applyRunEnv(env: NodeJS.ProcessEnv = process.env, from: string = __dirname): RunEnvResult {
  const root = findCheckoutRoot(from);
  const result: RunEnvResult = { files: [], applied: [] };
  if (!root) return result;
  const runDir = join(root, '.run');
  let names: string[];
  try {
    names = readdirSync(runDir).filter((n) => n.endsWith('.env')).sort();
  } catch {
    return result;
  }
  for (const name of names) {
    const file = join(runDir, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // unreadable (another user's 0600 secrets): the environment must provide them
    }
    result.files.push(file);
    for (const [key, value] of Object.entries(parseEnvFile(text))) {
      if (env[key] !== undefined) continue;
      env[key] = value;
      result.applied.push(key);
    }
  }
  return result;
}

/**
 * The configuration of an operator CLI: `.run/*.env` under the environment (applyRunEnv), then
 * parsed with `schema`. When it is invalid and no `.run/*.env` was found, the error says how to
 * get one, since a plain shell before any `npm start` is the usual cause.
 */
export function loadOperatorConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env, from: string = __dirname): z.infer<S> {
  const runEnv = applyRunEnv(env, from);
  try {
    return loadConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError && runEnv.files.length === 0) {
      throw new ConfigError([...err.problems, '(no .run/*.env in this checkout: run `npm start` first, or export the variables above)']);
    }
    throw err;
  }
}

/**
 * Runs a worker's main module in this process as if it had been started directly with `args`,
 * after `.run/*.env` is applied under the environment (applyRunEnv): how a worker started from a
 * plain shell in the checkout reaches the broker, namespace and database `npm start` settled on.
 */
export function runWorkerWithRunEnv(main: string, args: readonly string[], from: string = __dirname): Promise<unknown> {
  applyRunEnv(process.env, from);
  // The worker reads its arguments from process.argv.
  process.argv = [process.argv[0]!, main, ...args];
  return import(main);
}
