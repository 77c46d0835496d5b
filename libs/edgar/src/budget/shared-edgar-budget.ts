import type { EdgarLogger } from '../edgar.logger';
import { RequestLimiter } from '../request.limiter';
import type { EdgarBudget } from './edgar-budget';
import { RedisEdgarBudget } from './redis-edgar-budget';

export interface EdgarBudgetSettings {
  maxRps: number;
  /** Redis shared by every process of the client; unset: this process keeps its own budget. */
  redisUrl?: string;
  keyPrefix?: string;
  logger?: EdgarLogger;
}

let shared: EdgarBudget | null = null;

/**
 * The one EDGAR budget of this process, used by every EdgarClient unless a test injects its own.
 * The first caller decides: with a Redis URL the budget is shared across processes, else it is
 * this process's RequestLimiter, whose rate later callers can only lower.
 */
export function sharedEdgarBudget(settings: EdgarBudgetSettings): EdgarBudget {
  if (!shared) {
    shared = settings.redisUrl
      ? RedisEdgarBudget.connect(settings.redisUrl, { maxRps: settings.maxRps, keyPrefix: settings.keyPrefix ?? 'edgar-budget:', ...(settings.logger ? { logger: settings.logger } : {}) })
      : new RequestLimiter(settings.maxRps);
  } else if (shared instanceof RequestLimiter) {
    shared.lowerRate(settings.maxRps);
  }
  return shared;
}

/** The process's budget, once some client has asked for it (metrics read it at scrape time). */
export function currentEdgarBudget(): EdgarBudget | null {
  return shared;
}
