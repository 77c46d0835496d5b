// Webhook building blocks shared by the api (endpoint registration) and the webhooks app (delivery).
export { generateSigningSecret, signingKeyOf, SecretBox, SIGNING_SECRET_BYTES } from './secrets';
export { signPayload, webhookHeaders } from './signature';
