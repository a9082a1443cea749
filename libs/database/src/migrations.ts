import { Initial1795298437629 } from './migrations/1795298437629-initial.js';

// Every migration, in order. Listed by class (not by glob) so the same list works from the
// TypeScript sources under Jest and from the compiled tree.
export const MIGRATIONS: (new () => object)[] = [Initial1795298437629];
