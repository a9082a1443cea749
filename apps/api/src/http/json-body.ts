import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import express, { type Response } from 'express';
import type { ApiRequest } from '#http/api-request.js';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH } from '#http/body-limits.js';
import { READS_OWN_BODY } from '../auth/route-access.decorators.js';

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: ['application/json', 'application/*+json'] });

/**
 * Reads a JSON body up to 64 KiB, as the last of the global guards (api.module.ts): the key, the
 * rate limit, the plan and the scope decide before a byte of the body is read, so a caller without
 * them cannot hold a connection by trickling one (docs/design-record.md#d25). A body that cannot be
 * read is noted on the request instead of answered here, and reported by the route's input check
 * (docs/design-record.md#d2 order).
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(READS_OWN_BODY, [context.getHandler(), context.getClass()]) === true) return true;
    const http = context.switchToHttp();
    await readJsonBody(http.getRequest<ApiRequest>(), http.getResponse<Response>());
    return true;
  }
}

/** Reads the body into `req.body`, or notes on `req.bodyError` why it could not (a route that reads its own calls it). */
export function readJsonBody(req: ApiRequest, res: Response): Promise<void> {
  return new Promise((resolve) => {
    parseJson(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: string }).type;
        req.bodyError = type === 'entity.too.large' ? 'PAYLOAD_TOO_LARGE' : 'MALFORMED_JSON';
        req.body = undefined;
      } else if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
        req.bodyError = 'TOO_DEEP';
        req.body = undefined;
      }
      resolve();
    });
  });
}

/** Whether arrays and objects nest more than `limit` levels; iterative, whatever the depth. */
function nestedDeeperThan(body: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limit) return true;
    for (const item of Object.values(value)) stack.push({ value: item, depth: depth + 1 });
  }
  return false;
}
