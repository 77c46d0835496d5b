import { createMetricsRegistry } from '@app/observability';
import { RequestLimiter } from '../request.limiter';
import { registerEdgarBudgetMetrics } from './edgar-budget.metrics';

describe('registerEdgarBudgetMetrics', () => {
  it('exposes grants per priority, throttles, the pause and the fallback state of the budget at scrape time', async () => {
    const budget = new RequestLimiter(10);
    const registry = createMetricsRegistry();
    registerEdgarBudgetMetrics(registry, () => budget);
    await budget.acquire('discovery');
    await budget.acquire('backfill');
    await budget.acquire('backfill');
    budget.pauseFor(60_000);
    const text = await registry.metrics();
    expect(text).toContain('edgar_budget_grants_total{priority="discovery"} 1');
    expect(text).toContain('edgar_budget_grants_total{priority="documents"} 0');
    expect(text).toContain('edgar_budget_grants_total{priority="backfill"} 2');
    expect(text).toContain('edgar_budget_throttles_total 1');
    const paused = Number(/^edgar_budget_paused_until_seconds (\S+)$/m.exec(text)?.[1]);
    expect(paused).toBeCloseTo(budget.pausedUntilMs / 1000, 3);
    expect(text).toContain('edgar_budget_degraded 0');
    await budget.close();
  });

  it('reads zeros before any client has asked for a budget', async () => {
    const registry = createMetricsRegistry();
    registerEdgarBudgetMetrics(registry, () => null);
    const text = await registry.metrics();
    expect(text).toContain('edgar_budget_paused_until_seconds 0');
    expect(text).toContain('edgar_budget_throttles_total 0');
  });
});
