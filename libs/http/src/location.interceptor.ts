import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response as ExpressResponse } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { AppConfig } from '#config/app-config.js';
import type { ApiRequest } from './api-request.js';
import { operationOf } from './operation-metadata.js';

/**
 * The `Location` of a write that creates a resource (docs/design-record.md#d23): the one place that
 * sets it, for every operation whose success answer declares the header (its `location` fact: the
 * resource's path, `{id}` being the answer's id), on the first answer and on an idempotent replay
 * alike, and for every version (a header is not a shape of the body, docs/design-record.md#d22).
 *
 * The address is the request's own route prefix followed by the resource's path: relative
 * (`/v1/api/appointments/{id}`, a relative reference RFC 9110 §10.2.2 allows, resolved against the
 * request's address), or absolute under PUBLIC_BASE_URL when the operator set it. Never built from
 * Host or X-Forwarded-* headers, which a caller writes: a replay answers the same address as the
 * first answer whoever sends it.
 */
@Injectable()
export class LocationInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const operation = operationOf(this.reflector, context);
    if (!operation || operation.location === null) return next.handle();
    const resource = { path: operation.location, routePath: operation.routePath };
    const http = context.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<ExpressResponse>();
    return next.handle().pipe(
      mergeMap((answer: unknown) =>
        from(
          (async () => {
            // An idempotent replay is a whole Response (IdempotencyInterceptor), its headers sent as they are.
            if (answer instanceof Response) {
              if (answer.status === operation.successStatus) {
                const location = this.locationOf(resource, req, idOf(await answer.clone().json()));
                if (location !== null) answer.headers.set('Location', location);
              }
              return answer;
            }
            const location = this.locationOf(resource, req, idOf(answer));
            if (location !== null) res.setHeader('Location', location);
            return answer;
          })(),
        ),
      ),
    );
  }

  /** The resource's address; null when the answer has no id (never for the contract's operations). */
  private locationOf(resource: { path: string; routePath: string }, req: ApiRequest, id: string | null): string | null {
    if (id === null) return null;
    // The prefix the route is served under (`/v1/api`): the request's path without the route's own segments.
    const segments = req.path.replace(/\/+$/, '').split('/');
    const prefix = segments.slice(0, segments.length - resource.routePath.split('/').length).join('/');
    const path = `${prefix}${resource.path.replace('{id}', encodeURIComponent(id))}`;
    return this.config.PUBLIC_BASE_URL === undefined ? path : `${this.config.PUBLIC_BASE_URL}${path}`;
  }
}

function idOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { id } = answer as { id?: unknown };
  return typeof id === 'string' ? id : null;
}
