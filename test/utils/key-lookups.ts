import { jest } from '@jest/globals';
import { ApiKeysRepository } from '#core/api-keys/api-keys.repository.js';
import type { E2eApi } from './e2e-api.js';

/** How many keys the APIs looked up in the database; `count` is the tests' to reset. */
export interface KeyLookups {
  count: number;
}

/**
 * Counts the database lookups of API keys on every given API (a spy on the repository, which
 * still answers): what the failed-authentication limit spares the database (docs/design-record.md#d24).
 * jest.restoreAllMocks() undoes it.
 */
export function countKeyLookups(apis: E2eApi[]): KeyLookups {
  const lookups: KeyLookups = { count: 0 };
  for (const api of apis) {
    const repository = api.app.get(ApiKeysRepository);
    const find = repository.findActiveByHash.bind(repository);
    jest.spyOn(repository, 'findActiveByHash').mockImplementation((hash) => {
      lookups.count++;
      return find(hash);
    });
  }
  return lookups;
}
