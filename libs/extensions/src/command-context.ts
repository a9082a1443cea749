import type { INestApplicationContext } from '@nestjs/common';

/** What every admin command gets: a way to run its work in the booted application and print the result. */
export interface CommandContext {
  /**
   * Boots the admin application, runs `work` in it, prints what it returns as JSON on stdout
   * and closes the application. Errors propagate to runAdmin, which reports them.
   */
  run(work: (app: INestApplicationContext) => Promise<object>): Promise<void>;
}
