import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';
import { NOTICE_TYPES, OPERATIONS } from './generated/operations.js';
import { WaitlistEntries1795320000000 } from './migrations/1795320000000-waitlist-entries.js';

/**
 * The waitlist, registered in extensions/index.ts. Data only here; its Nest modules and commands
 * are loaded when an app boots (see SchedulingExtension).
 */
const waitlist: SchedulingExtension = {
  name: 'waitlist',
  contract: { document: 'extensions/waitlist/openapi.yaml', operations: OPERATIONS, noticeTypes: NOTICE_TYPES },
  migrations: [WaitlistEntries1795320000000],
  api: async () => ({ module: (await import('./api/waitlist-api.module.js')).WaitlistApiModule }),
  admin: async () => (await import('./admin/waitlist-admin.js')).waitlistAdmin,
};

export default waitlist;
