/**
 * A sleep that can be cut short: `wait` resolves after `ms`, or as soon as `fire` is called. A
 * `fire` while nobody waits is kept, so a wake-up that comes mid-work is not lost.
 */
export class Wakeup {
  private pending = false;
  private wake: (() => void) | null = null;

  fire(): void {
    if (this.wake) {
      const wake = this.wake;
      this.wake = null;
      wake();
    } else {
      this.pending = true;
    }
  }

  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
