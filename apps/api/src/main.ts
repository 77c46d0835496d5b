import { ConfigError } from '@app/config';
import { createApiApp } from './api.app';
import { loadApiConfig } from './config/api.config';

/** `node dist/apps/api/src/main.js`: the /v1 API on PORT (default 3000), host HOST (default 0.0.0.0). */
async function main(): Promise<void> {
  const config = loadApiConfig();
  const app = await createApiApp(config);
  await app.listen(config.PORT, config.HOST);
  console.log(JSON.stringify({ level: 'info', msg: 'api listening', port: config.PORT, host: config.HOST }));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
