import { readCounter, readGauge, type Registry } from '@app/observability';
import { EDGAR_PRIORITIES, type EdgarBudget } from './edgar-budget';
import { currentEdgarBudget } from './shared-edgar-budget';

/**
 * The EDGAR budget's series in an app's registry: grants per priority, throttles (403/429 seen by
 * this process), the pause every process observes, and whether Redis is out (local fallback).
 */
export function registerEdgarBudgetMetrics(registry: Registry, budget: () => EdgarBudget | null = currentEdgarBudget): void {
  readCounter(registry, {
    name: 'edgar_budget_grants_total',
    help: 'EDGAR requests this process was allowed to start, by priority',
    labelNames: ['priority'],
    read: () => EDGAR_PRIORITIES.map((priority) => ({ labels: { priority }, value: budget()?.stats.grants[priority] ?? 0 })),
  });
  readCounter(registry, {
    name: 'edgar_budget_throttles_total',
    help: 'SEC 403/429 answers seen by this process (each pauses every process of the budget)',
    read: () => budget()?.stats.throttles ?? 0,
  });
  readGauge(registry, {
    name: 'edgar_budget_paused_until_seconds',
    help: 'Epoch seconds until which EDGAR requests are paused after a throttle; 0 when not paused',
    read: () => {
      const until = budget()?.pausedUntilMs ?? 0;
      return until > Date.now() ? until / 1000 : 0;
    },
  });
  readGauge(registry, {
    name: 'edgar_budget_degraded',
    help: '1 while the shared budget cannot reach Redis and this process runs on its 1/s local fallback',
    read: () => (budget()?.stats.degraded ? 1 : 0),
  });
}
