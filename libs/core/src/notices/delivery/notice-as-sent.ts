import { createHash } from 'node:crypto';
import type { AnswerShaper } from '#contract/versions/answer-shaper.js';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import { checkNoticeBody, deliveredNotice, type NoticeMode } from '../outbox/notice-body.js';

/**
 * The body of a stored notice as it is sent to an endpoint pinned to `version`
 * (docs/design-record.md#d22): the one way the sender builds it and the delivery log rebuilds it.
 * Throws when the stored body is not a notice's.
 */
export function noticeAsSent(shaper: AnswerShaper, payload: unknown, mode: NoticeMode, version: ApiVersion): string {
  const notice = deliveredNotice(checkNoticeBody(payload, shaper.noticeTypes), mode);
  return JSON.stringify(shaper.shapeNotice(version, notice.type, notice));
}

/** What an attempt keeps of the body it sent: a rebuilt body is shown only when its digest is this. */
export function bodyDigest(body: string): Buffer {
  return createHash('sha256').update(body, 'utf8').digest();
}
