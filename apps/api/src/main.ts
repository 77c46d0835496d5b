import { answerArgumentless, ConfigError } from '@app/config';
import { createApiApp } from './api.app';
import { loadApiConfig } from './config/api.config';

const USAGE = `usage: node dist/apps/api/src/main.js   (no arguments; settings from the environment)
  Serves the /v1 API, /docs and /mcp on PORT (default 3000), HOST (default 0.0.0.0) until SIGINT/SIGTERM.
  Exit codes: 0 stopped, 1 failed (configuration, database), 2 bad input.`;

/** `node dist/apps/api/src/main.js`: the /v1 API on PORT (default 3000), host HOST (default 0.0.0.0). */
async function main(): Promise<void> {
  const answered = answerArgumentless('api', process.argv.slice(2), USAGE);
  if (answered !== null) process.exit(answered);
  const config = loadApiConfig();
  const app = await createApiApp(config);
  await app.listen(config.PORT, config.HOST);
  console.log(JSON.stringify({ level: 'info', msg: 'api listening', port: config.PORT, host: config.HOST }));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
