import { readFileSync } from 'node:fs';
import { NOTICE_TYPES } from './generated/operations.js';
import { findContractPath } from './openapi-document.js';
import { ServedContract, servedNoticeTypes, serveExtensions } from './served-contract.js';

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
});

// A process (here, this Jest file) that reads the notice types before any app has chosen.
describe('the notice types when no app has said which extensions it serves', () => {
  it('are the core notice types alone, and stay so', () => {
    expect(servedNoticeTypes()).toEqual(NOTICE_TYPES);
    expect(() => serveExtensions([waitlistLike])).toThrow(
      'This process serves no extension (chosen at start, or read before serveExtensions was called), so it cannot serve the extensions waitlist',
    );
    expect(() => serveExtensions([])).not.toThrow();
  });
});
