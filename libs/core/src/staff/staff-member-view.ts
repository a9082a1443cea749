/** A staff member as partners see it (docs/design-record.md#d14): never contact details or working hours. */
export interface StaffMemberView {
  id: string;
  name: string;
  active: boolean;
  /** The active services the member performs, ordered by id; no service list means every one. */
  serviceIds: string[];
}
