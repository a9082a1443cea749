import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import type { ApiRequest } from '#http/api-request.js';
import { pinAnswerVersion } from '#http/api-version.js';
import { operationOf } from '#http/operation-metadata.js';
import { isPublicRoute } from './is-public-route.js';

/**
 * Second gate, once the key is known: the version the answer is shaped for (docs/design-record.md#d22),
 * the one asked for with Api-Version or the key's pin. An unknown Api-Version is refused here.
 */
@Injectable()
export class ApiVersionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly shaper: AnswerShaper,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const http = context.switchToHttp();
    pinAnswerVersion(
      this.shaper,
      http.getRequest<ApiRequest>(),
      http.getResponse<Response>(),
      operationOf(this.reflector, context)?.operationId,
    );
    return true;
  }
}
