import { readFileSync } from 'node:fs';
import { NOTICE_TYPES } from './generated/operations.js';
import { findContractPath } from './openapi-document.js';
import { ServedContract } from './served-contract.js';

const waitlistLike = {
  name: 'waitlist',
  contract: { document: 'extensions/waitlist/openapi.yaml', operations: {}, noticeTypes: ['waitlist.joined'] },
};

describe('a served contract made with no extension', () => {
  it('is the published document and the core notice types alone', () => {
    const contract = new ServedContract();
    expect(contract.yaml).toBe(readFileSync(findContractPath(), 'utf8'));
    expect(contract.noticeTypes).toEqual(NOTICE_TYPES);
    expect(contract.operation('joinWaitlist')).toBeUndefined();
  });

  it('is not changed by another made in the same process with an extension: nothing is set once', () => {
    const withWaitlist = new ServedContract([waitlistLike]);
    expect(withWaitlist.noticeTypes).toEqual([...NOTICE_TYPES, 'waitlist.joined']);
    expect(new ServedContract().noticeTypes).toEqual(NOTICE_TYPES);
  });
});
