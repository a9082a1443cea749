import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import express, { type Response } from 'express';
import { ConsoleFormRefused } from './console-exceptions.js';
import type { ConsoleRequest } from './console-request.js';
import { ConsoleSessionGuard } from './console-session.guard.js';

const readForm = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 });

/**
 * A POST's form, read after the session and the business were checked (docs/design-record.md#d25:
 * no body is read for a caller refused before), url-encoded up to 16 KiB, and refused unless it
 * carries the token of its page and session.
 */
@Injectable()
export class ConsoleFormGuard implements CanActivate {
  constructor(private readonly sessions: ConsoleSessionGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<ConsoleRequest>();
    if (req.method !== 'POST') return true;
    await new Promise<void>((resolve, reject) =>
      readForm(req, http.getResponse<Response>(), (error?: unknown) => (error ? reject(new ConsoleFormRefused()) : resolve())),
    );
    if (!this.sessions.forms.valid(req)) throw new ConsoleFormRefused();
    return true;
  }
}
