import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE } from './route-access.decorators.js';

/**
 * A route's metadata is fixed once it is mounted: read once per controller and handler rather
 * than by three guards on every request.
 */
const known = new WeakMap<object, WeakMap<object, boolean>>();

export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const controller = context.getClass();
  const handler = context.getHandler();
  let handlers = known.get(controller);
  if (!handlers) known.set(controller, (handlers = new WeakMap()));
  let isPublic = handlers.get(handler);
  if (isPublic === undefined) {
    isPublic = reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, controller]) === true;
    handlers.set(handler, isPublic);
  }
  return isPublic;
}
