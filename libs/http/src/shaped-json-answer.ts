import type { Response } from 'express';
import type { ApiVersion } from '#contract/versions/api-versions.js';
import type { AnswerShaper } from '#contract/versions/answer-shaper.js';

/**
 * Shapes a handler's answer for a caller pinned to an earlier version (docs/design-record.md#d22)
 * where Express writes it: Nest hands the object a handler returns to `res.json`, and nothing else
 * on an API route does (the problem filter sends its body as text, an idempotent replay is a web
 * Response shaped by its interceptor). So it runs outside every route interceptor, and the
 * idempotency record keeps the current version's answer.
 *
 * Set on the response only when the request's version changes the operation's answer: a request
 * on the current version passes no step at all. A global interceptor did this before, and made
 * Nest run every route's handler through an RxJS chain for it, about a tenth of the API's CPU on a
 * read (docs/design-record.md#per-request-cost).
 */
export function shapeJsonAnswer(res: Response, shaper: AnswerShaper, version: ApiVersion, operationId: string): void {
  const json = res.json;
  res.json = function shapedJson(this: Response, body?: unknown) {
    return json.call(this, shaper.shapeAnswer(version, operationId, this.statusCode, body));
  };
}
