import { jest } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { oneLayer } from './one-layer.js';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
const req = {} as IncomingMessage;
const res = {} as ServerResponse;

describe('oneLayer', () => {
  it('runs every middleware in order, then the next layer once', () => {
    const order: string[] = [];
    const named =
      (name: string): Handler =>
      (_req, _res, next) => {
        order.push(name);
        next();
      };
    const next = jest.fn<(error?: unknown) => void>();
    oneLayer(named('a'), named('b'), named('c'))(req, res, next);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith(undefined);
  });

  it('runs the rest inside the scope a middleware opens around its next (AsyncLocalStorage)', () => {
    const seen: string[] = [];
    let scope = 'outside';
    const scoped: Handler = (_req, _res, next) => {
      scope = 'inside';
      next();
      scope = 'outside';
    };
    const look: Handler = (_req, _res, next) => {
      seen.push(scope);
      next();
    };
    oneLayer(scoped, look)(req, res, () => seen.push(`next ${scope}`));
    expect(seen).toEqual(['inside', 'next inside']);
  });

  it('passes an error given to next on and skips the rest', () => {
    const later = jest.fn();
    const failure = new Error('refused');
    const next = jest.fn<(error?: unknown) => void>();
    oneLayer((_req, _res, step) => step(failure), later)(req, res, next);
    expect(later).not.toHaveBeenCalled();
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('passes a thrown error on and skips the rest', () => {
    const later = jest.fn();
    const failure = new Error('thrown');
    const next = jest.fn<(error?: unknown) => void>();
    oneLayer(() => {
      throw failure;
    }, later)(req, res, next);
    expect(later).not.toHaveBeenCalled();
    expect(next).toHaveBeenCalledWith(failure);
  });
});
