// The docs as a reader meets them: Swagger UI in headless Chromium (Debian's `chromium`, driven
// by playwright-core) runs "Try it out" on GET /v1/companies/{symbol} with a real key and gets 200,
// and the webhooks and MCP guides load. Swagger UI's assets come from this api (no internet here).
// Skipped, saying so, where no Chromium is installed (.ci/run installs it).
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { createLogger } from '@app/observability';
import { createTestDatabase, seedMicrosoft, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const describeWithChromium = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) console.warn(`docs.browser.int-spec: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);


describeWithChromium('the docs in a browser', () => {
  let db: TestDatabase;
  let api: { server: FastifyInstance; context: ApiContext };
  let url: string;
  let key: string;
  let browser: Browser;
  /** Requests the page made to anything but this api (there should be none: no CDN). */
  const foreign: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('docs_browser');
    api = await buildApiServer(
      apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: randomBytes(24).toString('hex'), CURSOR_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' }),
      { logger: createLogger({ level: 'silent' }) },
    );
    url = await api.server.listen({ port: 0, host: '127.0.0.1' });
    const ds = api.context.dataSource;
    await seedMicrosoft(ds);
    const [account] = await ds.query<{ id: string }[]>(`INSERT INTO accounts (id, name, plan) VALUES ($1, 'docs reader', 'builder') RETURNING id`, [`acct_${randomBytes(6).toString('hex')}`]);
    key = (await api.context.keys.createKey({ accountId: account!.id, mode: 'live', label: 'browser' })).key;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.server.close();
    await db?.drop();
  });

  it('runs "Try it out" on GET /v1/companies/{symbol} in Swagger UI, authorized with a key, and shows the 200', async () => {
    const page = await browser.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${url}/docs`);
    // Authorize: the bearer scheme's dialog.
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(key);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();
    // The operation, opened by its deep link id (tag companies, operationId getCompany).
    const operation = page.locator('#operations-companies-getCompany');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    const symbol = operation.locator('tr[data-param-name="symbol"] input');
    // The path parameter's example fills the field once the document declares one; until then, the seeded company.
    if ((await symbol.inputValue()) === '') await symbol.fill('MSFT:US');
    expect(await symbol.inputValue()).toBe('MSFT:US');
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.innerText()).trim()).toMatch(/^200\b/);
    expect(await operation.locator('.live-responses-table .response .response-col_description').first().innerText()).toContain('MICROSOFT CORP');
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);

  it('loads /docs/webhooks and /docs/mcp with their headings and a payload', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/docs/webhooks`);
    expect(await page.locator('h1').innerText()).toBe('Webhooks');
    expect(await page.locator('h3#filing\\.created').innerText()).toBe('filing.created');
    const payload = JSON.parse(await page.locator('h3#filing\\.created + p + pre').innerText()) as { type: string; data: { accession: string } };
    expect(payload).toMatchObject({ type: 'filing.created', data: { accession: expect.stringMatching(/^\d{10}-\d\d-\d{6}$/) } });
    await page.goto(`${url}/docs/mcp`);
    expect(await page.locator('h1').innerText()).toBe('MCP server');
    expect(await page.locator('h3#get_company').innerText()).toContain('get_company');
    const config = JSON.parse(await page.locator('h2#connect ~ pre').first().innerText()) as { mcpServers: { filings: { url: string } } };
    expect(config.mcpServers.filings.url).toMatch(/\/mcp$/);
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);
});
