/** A half-open interval of instants, [start, end): an appointment ending at 10:00 leaves 10:00 free. */
export interface TimeInterval {
  start: Date;
  end: Date;
}

export function overlaps(a: TimeInterval, b: TimeInterval): boolean {
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

export function contains(outer: TimeInterval, inner: TimeInterval): boolean {
  return outer.start.getTime() <= inner.start.getTime() && inner.end.getTime() <= outer.end.getTime();
}
