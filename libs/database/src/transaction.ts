import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs work in one transaction, or inside the caller's when a manager is given, so that a
 * service can compose repository calls and still commit once.
 */
export function inTransaction<T>(
  dataSource: DataSource,
  manager: EntityManager | undefined,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return manager ? work(manager) : dataSource.transaction(work);
}
