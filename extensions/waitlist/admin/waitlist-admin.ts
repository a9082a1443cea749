import type { ExtensionAdmin } from '#extensions-api/scheduling-extension.js';
import { WaitlistModule } from '../waitlist.module.js';
import { registerWaitlistCommands } from './waitlist.command.js';

/** What the admin command line takes from the waitlist: its module and its commands. */
export const waitlistAdmin: ExtensionAdmin = { module: { module: WaitlistModule }, register: registerWaitlistCommands };
