import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

const ambient = new AsyncLocalStorage<EntityManager>();

/**
 * Runs work with `manager` as the ambient transaction, so that every repository call made
 * inside it (however deep) joins that transaction. This is how an idempotent write commits its
 * rows and its stored response together without threading a manager through every signature.
 */
export function withAmbientTransaction<T>(manager: EntityManager, work: () => Promise<T>): Promise<T> {
  return ambient.run(manager, work);
}

/** The manager a repository should use: the one it was given, the ambient transaction, or none. */
export function managerFor(dataSource: DataSource, manager?: EntityManager): EntityManager {
  return manager ?? ambient.getStore() ?? dataSource.manager;
}

/**
 * Runs work in a transaction: the ambient one when there is one (its caller commits), else a new
 * one that is ambient for the work. A service wraps each multi-row change in this.
 */
export function transactional<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (ambient.getStore()) return work();
  return dataSource.transaction((manager) => ambient.run(manager, work));
}
