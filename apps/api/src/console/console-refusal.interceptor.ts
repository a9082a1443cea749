import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, type Observable } from 'rxjs';
import { DomainError } from '#core/errors/domain-error.js';
import { ConsoleFlow } from './console-flow.js';
import { consoleStateOf, type ConsoleRequest } from './console-request.js';

const REFUSED_TO = 'console:refused-to';

/**
 * Where an action's refusal is shown: the page `up` path segments above the action's own
 * (`…/test-mode/reset` up 1 is `…/test-mode`; `…/keys/<id>/revoke` up 2 is `…/keys`).
 */
export const RefusedTo = (up: number): MethodDecorator => SetMetadata(REFUSED_TO, up);

/**
 * Post/Redirect/Get for a refusal too (docs/design-record.md#d29): an action a service refuses (a
 * plan without integrations, a key no longer active) answers 303 to the page it came from, which
 * says why once; never a page as the answer to a POST, which a reload would post again.
 */
@Injectable()
export class ConsoleRefusalInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly flow: ConsoleFlow,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const req = context.switchToHttp().getRequest<ConsoleRequest>();
        const state = consoleStateOf(req);
        if (!(error instanceof DomainError) || error.code === 'INTERNAL' || error.code === 'SERVICE_UNAVAILABLE' || !state.session)
          throw error;
        const up = this.reflector.get<number | undefined>(REFUSED_TO, context.getHandler()) ?? 0;
        const page = state.path
          .split('/')
          .slice(0, up === 0 ? undefined : -up)
          .join('/');
        return from(this.flow.seeOther(state, page, { kind: 'error', code: error.code, detail: error.detail }));
      }),
    );
  }
}
