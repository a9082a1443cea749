/** What orders the members who could take an "any staff" booking (docs/design-record.md#d16). */
export interface CandidateLoad {
  id: string;
  /** Active appointments that local day. */
  dayCount: number;
  /** Those of them before the requested start. */
  countBefore: number;
}

/**
 * The order in which "any staff" tries the members who can take the slot: the fewest active
 * appointments that local day first; ties go to the one with fewer of them before the start (its
 * morning is lighter), then to the lowest id, so the choice is the same on every instance.
 */
export function anyStaffOrder<T extends CandidateLoad>(candidates: readonly T[]): T[] {
  return [...candidates].sort(
    (a, b) => a.dayCount - b.dayCount || a.countBefore - b.countBefore || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
