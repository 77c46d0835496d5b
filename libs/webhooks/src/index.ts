// Webhook building blocks shared by the api (endpoint registration) and the webhooks app (delivery).
export { generateSigningSecret, SECRET_ROTATION_GRACE_HOURS, signingKeyOf, SecretBox, SIGNING_SECRET_BYTES } from './secrets';
export { signPayload, webhookHeaders } from './signature';
export {
  classifyAttempt,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_DISABLE_AFTER,
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  nextStep,
  parseDuration,
  parseRetryAfter,
  parseRetrySchedule,
  RETRY_JITTER,
  SLOW_DOWN_STATUSES,
  withJitter,
} from './delivery.policy';
export type { AttemptOutcome, AttemptResult, NextStep } from './delivery.policy';
export { RESPONSE_EXCERPT_BYTES, responseExcerpt, webhookBody } from './delivery.payload';
export type { WebhookEventBody } from './delivery.payload';
