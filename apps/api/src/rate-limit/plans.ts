import type { Plan } from '@app/persistence';
import type { ValidationItem } from '../platform/api.errors';
import type { ApiConfig } from '../config/api.config';

export interface PlanLimits {
  plan: Plan;
  /** Requests per one-second window. */
  burstPerSecond: number;
  /** Requests per UTC day. */
  dailyQuota: number;
  /** Hard cap of the `limit` query parameter. */
  maxLimit: number;
}

export type PlanTable = Record<Plan, PlanLimits>;

export function planTable(config: ApiConfig): PlanTable {
  return {
    free: { plan: 'free', burstPerSecond: config.PLAN_FREE_BURST_PER_SECOND, dailyQuota: config.PLAN_FREE_DAILY_QUOTA, maxLimit: Math.min(config.PLAN_FREE_MAX_LIMIT, 500) },
    builder: { plan: 'builder', burstPerSecond: config.PLAN_BUILDER_BURST_PER_SECOND, dailyQuota: config.PLAN_BUILDER_DAILY_QUOTA, maxLimit: Math.min(config.PLAN_BUILDER_MAX_LIMIT, 500) },
    pro: { plan: 'pro', burstPerSecond: config.PLAN_PRO_BURST_PER_SECOND, dailyQuota: config.PLAN_PRO_DAILY_QUOTA, maxLimit: Math.min(config.PLAN_PRO_MAX_LIMIT, 500) },
    enterprise: { plan: 'enterprise', burstPerSecond: config.PLAN_ENTERPRISE_BURST_PER_SECOND, dailyQuota: config.PLAN_ENTERPRISE_DAILY_QUOTA, maxLimit: Math.min(config.PLAN_ENTERPRISE_MAX_LIMIT, 500) },
  };
}

/** sk_test_ keys are clamped to the free plan whatever the account's plan. */
export function effectivePlan(plan: Plan, mode: 'live' | 'test'): Plan {
  return mode === 'test' ? 'free' : plan;
}

/**
 * The 422 item for a `limit` above the caller's plan cap, or null when it fits: the cap is hard
 * (free and sk_test_: 25), never a silent clamp.
 */
export function planLimitItem(limit: number | undefined, input: unknown, plans: PlanTable, principal: { plan: Plan; mode: 'live' | 'test' }): ValidationItem | null {
  const cap = plans[effectivePlan(principal.plan, principal.mode)].maxLimit;
  if (limit === undefined || limit <= cap) return null;
  const who = principal.mode === 'test' ? 'sk_test_ key (free plan limits)' : `${principal.plan} plan`;
  return {
    type: 'less_than_equal',
    loc: ['query', 'limit'],
    msg: `Input should be less than or equal to ${cap}`,
    input: String(input),
    ctx: { le: cap, reason: `the ${who} caps limit at ${cap}` },
  };
}
