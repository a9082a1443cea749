import { newId } from '#database/new-id.js';
import type { WebhookEventType } from '../webhooks/webhook-events.js';

/**
 * The body of a change notice, exactly the fields of decision D9: what changed and when, never
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
