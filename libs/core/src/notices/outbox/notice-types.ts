import { NOTICE_TYPES, type NoticeType } from '#contract/generated/operations.js';

/**
 * A notice type: the core contract's (docs/design-record.md#d9), or one an enabled extension's
 * contract declares, named `<subject>.<event>` as the core's are.
 */
export type ServedNoticeType = NoticeType | `${string}.${string}`;

/** The core contract's notice types, which every deployment sends; an enabled extension adds its own (ServedContract.noticeTypes). */
export const CORE_NOTICE_TYPES: readonly ServedNoticeType[] = NOTICE_TYPES;

/**
 * The change notices an endpoint can subscribe to, a fixture can name and the outbox accepts, as
 * an application serves them: the core contract's notice types, then those of the extensions it
 * enables (`ServedContract.noticeTypes`, injected; docs/extending.md). Passed in, never read from a
 * module's state, so no check depends on what started first.
 */
export type NoticeTypes = readonly string[];

export function isServedNoticeType(value: string, types: NoticeTypes): value is ServedNoticeType {
  return types.includes(value);
}

/** Why an endpoint cannot subscribe to these event types, or null when it can. */
export function checkSubscribedTypes(events: readonly string[], types: NoticeTypes): string | null {
  if (events.length === 0) return 'must hold at least one event type';
  const unknown = events.filter((event) => !isServedNoticeType(event, types));
  if (unknown.length > 0) return `has unknown event types: ${unknown.join(', ')} (known: ${types.join(', ')})`;
  if (new Set(events).size !== events.length) return 'must not repeat an event type';
  return null;
}
