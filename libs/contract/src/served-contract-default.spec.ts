import { readFileSync } from 'node:fs';
import { NOTICE_TYPES } from './generated/operations.js';
import { findContractPath } from './openapi-document.js';
import { loadServedContract, servedNoticeTypes, servedOperation, serveExtensions } from './served-contract.js';

const waitlistLike = {
  name: 'waitlist',
  contract: { document: 'extensions/waitlist/openapi.yaml', operations: {}, noticeTypes: ['waitlist.joined'] },
};

// A process (here, this Jest file) that reads what is served before any app has chosen.
describe('the served contract when no app has said which extensions it serves', () => {
  it('is the published document and the core notice types alone, and stays so', () => {
    expect(loadServedContract().yaml).toBe(readFileSync(findContractPath(), 'utf8'));
    expect(servedNoticeTypes()).toEqual(NOTICE_TYPES);
    expect(servedOperation('joinWaitlist')).toBeUndefined();
    expect(() => serveExtensions([waitlistLike])).toThrow(
      'This process serves no extension (chosen at start, or read before serveExtensions was called), so it cannot serve the extensions waitlist',
    );
    expect(() => serveExtensions([])).not.toThrow();
  });
});
