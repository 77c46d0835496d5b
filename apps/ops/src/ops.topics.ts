import { ALL_TOPICS, namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { UsageError } from './ops.args';

/** Every registry topic under the namespace (records and their `.dlq`). */
export function registryTopics(namespace: string): TopicDefinition[] {
  return ALL_TOPICS.map((t) => namespacedTopic(t, namespace));
}

/** The topics the projector consumes, as the registry lists them (its `consumers`). */
export function projectedTopics(namespace: string): TopicDefinition[] {
  return registryTopics(namespace).filter((t) => t.consumers.includes('projector'));
}

/**
 * What `replay --into` replays: the projected topics and the webhook event log, which its
 * projector (PROJECTOR_EVENTS=log) inserts instead of making events. The live projector never
 * reads the log, so `lag` and `replay reset` keep to projectedTopics.
 */
export function replayedTopics(namespace: string): TopicDefinition[] {
  return [...projectedTopics(namespace), namespacedTopic(TOPICS.webhookEvents, namespace)];
}

/**
 * A topic named by the operator: a record topic or its DLQ, with or without the namespace prefix.
 * Unknown names are a usage error that lists the valid ones.
 */
export function resolveTopic(name: string, namespace: string, among: readonly TopicDefinition[] = registryTopics(namespace)): TopicDefinition {
  const prefix = namespace ? `${namespace}.` : '';
  const wanted = name.trim();
  const found = among.find((t) => [t.name, t.dlq, t.name.slice(prefix.length), t.dlq.slice(prefix.length)].includes(wanted));
  if (!found) {
    throw new UsageError(`unknown topic '${name}'; valid topics:\n${among.map((t) => `  ${t.name}   (dead letters: ${t.dlq})`).join('\n')}`, undefined, false);
  }
  return found;
}

/** `--topics a,b` against a set of topics; every name must be known. */
export function selectTopics(names: readonly string[] | null, namespace: string, among: readonly TopicDefinition[]): TopicDefinition[] {
  if (!names) return [...among];
  const picked = names.map((n) => resolveTopic(n, namespace, among));
  return among.filter((t) => picked.includes(t));
}
