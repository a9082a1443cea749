/**
 * SQL for "the member performs the service" (docs/design-record.md#d6: a member without a service
 * list performs every service), the twin of performsService (availability/slot-check.ts) for the
 * statements that select members by it. Operands are column expressions or placeholders, fixed
 * when a statement is defined; its alias `ps` must not be the enclosing query's.
 */
export const performsServiceSql = (member: string, service: string): string =>
  `(NOT EXISTS (SELECT 1 FROM staff_services ps WHERE ps.staff_id = ${member})
    OR EXISTS (SELECT 1 FROM staff_services ps WHERE ps.staff_id = ${member} AND ps.service_id = ${service}))`;
