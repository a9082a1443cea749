import { newId } from '#database/new-id.js';
import { isWebhookEventType, type WebhookEventType } from '../webhooks/webhook-events.js';

/**
 * The body of a change notice, exactly the fields of docs/design-record.md#d9: what changed and when, never
 * a name, phone, e-mail or amount. Receivers fetch the rest through the API.
 */
export interface NoticeBody {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  business: string;
  data: { id: string; occurredAt: string; previousId?: string };
}

export function buildNoticeBody(input: {
  type: WebhookEventType;
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
      ...(input.previousId ? { previousId: input.previousId } : {}),
    },
  };
}

const BODY_FIELDS = ['id', 'type', 'createdAt', 'business', 'data'];
const DATA_FIELDS = ['id', 'occurredAt', 'previousId'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The notice as docs/design-record.md#d9 writes it, in docs/design-record.md#d9's field order, from what was stored or built; throws when it
 * has any other field, a missing one or a wrong type. The outbox refuses such a body when it is
 * recorded and the sender refuses to send one, so a field that might carry a name, phone, e-mail
 * or amount can never reach a receiver.
 */
export function checkNoticeBody(value: unknown): NoticeBody {
  const problems: string[] = [];
  if (!isRecord(value)) throw new Error('A notice body must be an object.');
  const data = value.data;
  problems.push(
    ...Object.keys(value)
      .filter((key) => !BODY_FIELDS.includes(key))
      .map((key) => `unknown field ${key}`),
  );
  if (isRecord(data)) {
    problems.push(
      ...Object.keys(data)
        .filter((key) => !DATA_FIELDS.includes(key))
        .map((key) => `unknown field data.${key}`),
    );
  } else {
    problems.push('data must be an object');
  }
  const text = (field: string, v: unknown): string => {
    if (typeof v === 'string' && v !== '') return v;
    problems.push(`${field} must be a non-empty string`);
    return '';
  };
  const id = text('id', value.id);
  const type = text('type', value.type);
  const createdAt = text('createdAt', value.createdAt);
  const business = text('business', value.business);
  const subject = isRecord(data) ? data : {};
  const dataId = text('data.id', subject.id);
  const occurredAt = text('data.occurredAt', subject.occurredAt);
  const rescheduled = type === 'appointment.rescheduled';
  const previousId = rescheduled ? text('data.previousId', subject.previousId) : '';
  if (!rescheduled && subject.previousId !== undefined) problems.push('data.previousId is only for appointment.rescheduled');
  if (!isWebhookEventType(type)) problems.push(`type ${type} is not a notice type`);
  if (problems.length > 0 || !isWebhookEventType(type)) {
    throw new Error(`Not a D9 notice body: ${problems.join('; ')}.`);
  }
  return {
    id,
    type,
    createdAt,
    business,
    data: rescheduled ? { id: dataId, occurredAt, previousId } : { id: dataId, occurredAt },
  };
}
