/** The console's own outcomes a guard or handler throws, which ConsoleExceptionFilter answers with a page or a redirect. */

/** A page that is not for this visitor sends them elsewhere with a 303 (not signed in: to sign-in). */
export class ConsoleRedirect extends Error {
  constructor(readonly location: string) {
    super(`see ${location}`);
  }
}

export const signInNeeded = (): ConsoleRedirect => new ConsoleRedirect('/console/sign-in');

/** No business of the signed-in member at this address (whether it exists or not is not said). */
export class ConsoleNothingHere extends Error {
  constructor() {
    super('nothing of yours here');
  }
}

/** A form without the token of its page and session. */
export class ConsoleFormRefused extends Error {
  constructor() {
    super('form token refused');
  }
}
