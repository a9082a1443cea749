import { NOTICE_TYPES, type NoticeType } from '#contract/generated/operations.js';
import { servedNoticeTypes } from '#contract/served-contract.js';

/**
 * A notice type: the core contract's (docs/design-record.md#d9), or one an enabled extension's
 * contract declares, named `<subject>.<event>` as the core's are.
 */
export type ServedNoticeType = NoticeType | `${string}.${string}`;

/** The core contract's notice types, which every deployment sends; an enabled extension adds its own (subscribableNoticeTypes). */
export const CORE_NOTICE_TYPES: readonly ServedNoticeType[] = NOTICE_TYPES;

/**
 * The change notices an endpoint can subscribe to, a fixture can name and the outbox accepts: the
 * core contract's notice types, then those of the extensions this process serves (EXTENSIONS; see
 * serveExtensions in libs/contract/src/served-contract.ts, where the set is made).
 */
export function subscribableNoticeTypes(): readonly ServedNoticeType[] {
  return servedNoticeTypes() as readonly ServedNoticeType[];
}

export function isServedNoticeType(value: string): value is ServedNoticeType {
  return subscribableNoticeTypes().includes(value as ServedNoticeType);
}

/** Why an endpoint cannot subscribe to these event types, or null when it can. */
export function checkSubscribedTypes(events: readonly string[]): string | null {
  if (events.length === 0) return 'must hold at least one event type';
  const unknown = events.filter((event) => !isServedNoticeType(event));
  if (unknown.length > 0) return `has unknown event types: ${unknown.join(', ')} (known: ${subscribableNoticeTypes().join(', ')})`;
  if (new Set(events).size !== events.length) return 'must not repeat an event type';
  return null;
}
