import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { API_VERSIONS, CURRENT_API_VERSION, isApiVersion, type ApiVersion } from '#contract/versions/api-versions.js';
import type { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { validationFailed } from '#core/errors/domain-error.js';
import type { ApiRequest } from './api-request.js';
import { headerOccurrences } from './header-occurrences.js';
import { shapeJsonAnswer } from './shaped-json-answer.js';

/** The request and response header of version pinning (docs/design-record.md#d22). */
export const API_VERSION_HEADER = 'Api-Version';
const HEADER = 'api-version';

/**
 * The version the request asks for with Api-Version; undefined when it asks for none. Any value
 * but a published version, or the header sent twice, is refused, naming the versions served.
 */
export function requestedApiVersion(req: IncomingMessage): ApiVersion | undefined {
  const raw = req.headers[HEADER];
  if (raw === undefined) return undefined;
  if (headerOccurrences(req, HEADER) === 1 && isApiVersion(raw)) return raw;
  throw validationFailed([
    { path: `/header/${API_VERSION_HEADER}`, message: `must be sent once, as one of the versions served: ${API_VERSIONS.join(', ')}` },
  ]);
}

/**
 * Every answer says the version it was shaped for. Until the key is known (an answer refused
 * before, a route outside the contract), that is the version asked for, else the current one.
 */
export function defaultApiVersionHeader(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const asked = req.headers[HEADER];
  res.setHeader(API_VERSION_HEADER, isApiVersion(asked) ? asked : CURRENT_API_VERSION);
  next();
}

/**
 * Fixes the version the request's answer is shaped for, once its key is known: the one asked for
 * with Api-Version, else the key's pin; for an operation added later than that, the version that
 * added it. Says it in the Api-Version header, and has the handler's answer shaped for it when that
 * version changes it.
 */
export function pinAnswerVersion(shaper: AnswerShaper, req: ApiRequest, res: Response, operationId: string | undefined): void {
  const pinned = requestedApiVersion(req) ?? req.apiKey?.apiVersion ?? CURRENT_API_VERSION;
  const version = operationId === undefined ? pinned : shaper.answerVersionOf(pinned, operationId);
  req.answerShape = { version, operationId };
  res.setHeader(API_VERSION_HEADER, version);
  if (operationId !== undefined && shaper.reshapesAnswer(version, operationId)) shapeJsonAnswer(res, shaper, version, operationId);
}
