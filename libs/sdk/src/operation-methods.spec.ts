import { OPERATION_IDS } from './generated/contract.js';
import { OPERATION_METHODS } from './operation-methods.js';
import { SchedulingClient } from './scheduling-client.js';

describe('every operation of the contract has an SDK method', () => {
  const sdk = new SchedulingClient({
    baseUrl: 'http://api.test',
    apiKey: 'rk_live_x',
    fetch: () => Promise.reject(new Error('not called')),
  });

  it.each(OPERATION_IDS.map((id) => [id]))('%s', (operationId) => {
    const path = OPERATION_METHODS[operationId];
    expect(path).toEqual(expect.any(String));
    const method = path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], sdk);
    expect(typeof method).toBe('function');
  });

  it('names no operation the contract does not have', () => {
    expect(Object.keys(OPERATION_METHODS).sort()).toEqual([...OPERATION_IDS].sort());
  });
});
