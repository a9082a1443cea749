import type { StaffMemberView } from '#core/staff/staff-member-view.js';
import type { Schemas } from '#contract/contract-types.js';

export function toStaffMember(member: StaffMemberView): Schemas['StaffMember'] {
  return { id: member.id, name: member.name, active: member.active, serviceIds: member.serviceIds };
}
