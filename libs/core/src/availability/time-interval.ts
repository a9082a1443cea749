/** A half-open interval of instants, [start, end): an appointment ending at 10:00 leaves 10:00 free. */
export interface TimeInterval {
  start: Date;
  end: Date;
}

/** An interval [start, end) as epoch milliseconds: what the database sends and the sweep reads, no Dates. */
export type Span = readonly [start: number, end: number];

export const spanOf = (interval: TimeInterval): Span => [interval.start.getTime(), interval.end.getTime()];

export function overlaps(a: TimeInterval, b: TimeInterval): boolean {
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

export function contains(outer: TimeInterval, inner: TimeInterval): boolean {
  return outer.start.getTime() <= inner.start.getTime() && inner.end.getTime() <= outer.end.getTime();
}
