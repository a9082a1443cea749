// Preloaded (`node --import`) into a compiled process a test starts, to give it a wall clock off by
// CLOCK_SKEW_MS milliseconds (negative: behind), as a second API instance on a badly synchronised
// machine has. `Date.now()` and `new Date()` move; timers (monotonic) do not.
const skew = Number(process.env.CLOCK_SKEW_MS ?? '0');
if (!Number.isFinite(skew)) throw new Error(`CLOCK_SKEW_MS must be a number of milliseconds, not ${process.env.CLOCK_SKEW_MS}`);

const RealDate = globalThis.Date;

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + skew);
    else super(...args);
  }

  static now() {
    return RealDate.now() + skew;
  }
}

globalThis.Date = SkewedDate;
