import type { NoticeEmails } from '#database/entities/notice.entity.js';
import { checkNoticeBody, type NoticeBody } from './notice-body.js';
import type { NoticeTypes } from './notice-types.js';

/**
 * A notice as the outbox row a write statement inserts with its change, in the table's column
 * names (the statement reads it with jsonb_populate_record). The body is checked here, as
 * NoticesRepository.record checks it, so no statement can write a body other than docs/design-record.md#d9's.
 */
export interface NoticeRow {
  id: string;
  business_id: string;
  type: string;
  payload: NoticeBody;
  emails: NoticeEmails | null;
}

export function noticeRow(businessId: string, body: NoticeBody, types: NoticeTypes, emails: NoticeEmails | null = null): NoticeRow {
  const payload = checkNoticeBody(body, types);
  return { id: payload.id, business_id: businessId, type: payload.type, payload, emails };
}
