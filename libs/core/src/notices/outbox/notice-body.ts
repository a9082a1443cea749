import { newId } from '#database/new-id.js';
import { isServedNoticeType, type NoticeTypes, type ServedNoticeType } from './notice-types.js';

/**
 * The body of a change notice, exactly the fields of docs/design-record.md#d9: what changed and when, never
 * a name, phone, e-mail or amount. Receivers fetch the rest through the API.
 */
export interface NoticeBody {
  id: string;
  type: ServedNoticeType;
  createdAt: string;
  business: string;
  data: NoticeData;
}

/** What changed: its id and when, and the fields its type carries besides (NOTICE_DATA_FIELDS). */
export interface NoticeData {
  id: string;
  occurredAt: string;
  /** The subject the changed one replaces (the old appointment of a reschedule). */
  previousId?: string;
}

/** A field of `data` a notice type may carry besides `id` and `occurredAt`. */
export type ExtraDataField = Exclude<keyof NoticeData, 'id' | 'occurredAt'>;

/**
 * The fields of `data` each notice type carries besides `id` and `occurredAt`, all required, in
 * their order in the body; a type not named here carries none (an extension's among them: its
 * notices are the core's shape). The contract's Notice schema says the same with its `if`/`then`
 * on `type` (notice-body.spec.ts holds the two equal), so a new field is a row here, not a branch.
 */
export const NOTICE_DATA_FIELDS: Readonly<Partial<Record<ServedNoticeType, readonly ExtraDataField[]>>> = {
  'appointment.rescheduled': ['previousId'],
};

const extraFieldsOf = (type: string): readonly ExtraDataField[] => NOTICE_DATA_FIELDS[type as ServedNoticeType] ?? [];

export function buildNoticeBody(input: {
  type: ServedNoticeType;
  businessSlug: string;
  subjectId: string;
  occurredAt: Date;
  previousId?: string;
}): NoticeBody {
  return {
    id: newId(),
    type: input.type,
    createdAt: new Date().toISOString(),
    business: input.businessSlug,
    data: {
      id: input.subjectId,
      occurredAt: input.occurredAt.toISOString(),
      ...(input.previousId === undefined ? {} : { previousId: input.previousId }),
    },
  };
}

const BODY_FIELDS = ['id', 'type', 'createdAt', 'business', 'data'];
const COMMON_DATA_FIELDS = ['id', 'occurredAt'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The notice as docs/design-record.md#d9 writes it, in docs/design-record.md#d9's field order, from what was stored or built; throws when it
 * has any other field, a missing one or a wrong type. The outbox refuses such a body when it is
 * recorded and the sender refuses to send one, so a field that might carry a name, phone, e-mail
 * or amount can never reach a receiver.
 */
export function checkNoticeBody(value: unknown, types: NoticeTypes): NoticeBody {
  const problems: string[] = [];
  if (!isRecord(value)) throw new Error('A notice body must be an object.');
  const data = value.data;
  const text = (field: string, v: unknown): string => {
    if (typeof v === 'string' && v !== '') return v;
    problems.push(`${field} must be a non-empty string`);
    return '';
  };
  const id = text('id', value.id);
  const type = text('type', value.type);
  const createdAt = text('createdAt', value.createdAt);
  const business = text('business', value.business);
  problems.push(
    ...Object.keys(value)
      .filter((key) => !BODY_FIELDS.includes(key))
      .map((key) => `unknown field ${key}`),
  );
  const dataFields: readonly string[] = [...COMMON_DATA_FIELDS, ...extraFieldsOf(type)];
  const subject = isRecord(data) ? data : {};
  if (isRecord(data)) {
    problems.push(
      ...Object.keys(data)
        .filter((key) => !dataFields.includes(key))
        .map((key) => `unknown field data.${key} for ${type || 'this type'}`),
    );
  } else {
    problems.push('data must be an object');
  }
  const checkedData = Object.fromEntries(
    dataFields.map((field) => [field, text(`data.${field}`, subject[field])]),
  ) as unknown as NoticeData;
  if (!isServedNoticeType(type, types)) problems.push(`type ${type} is not a notice type`);
  if (problems.length > 0 || !isServedNoticeType(type, types)) {
    throw new Error(`Not a D9 notice body: ${problems.join('; ')}.`);
  }
  return { id, type, createdAt, business, data: checkedData };
}

/** Whether a notice comes from the business (`live`) or its sandbox (`test`), docs/design-record.md#d23. */
export type NoticeMode = 'live' | 'test';

/** A notice as it is delivered in the current version: the stored body with its mode, after `business`. */
export type DeliveredNotice = Omit<NoticeBody, 'data'> & { mode: NoticeMode; data: NoticeData };

/**
 * The envelope the sender serialises and the event log shows, field for field and in order. The
 * mode is a fact of the business the notice was recorded for (a sandbox's or not), so it is added
 * here rather than stored: bodies recorded before 1.4.0 get it too (docs/design-record.md#d23).
 * Shaped for an endpoint's or a caller's version afterwards (shapeNotice, shapeAnswer).
 */
export function deliveredNotice(body: NoticeBody, mode: NoticeMode): DeliveredNotice {
  return { id: body.id, type: body.type, createdAt: body.createdAt, business: body.business, mode, data: body.data };
}
