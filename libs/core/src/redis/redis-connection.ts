import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { AppConfig } from '#config/app-config.js';

/** A connection to the service's Redis: one server, or a Redis Cluster (REDIS_CLUSTER). */
export type RedisConnection = Redis | Cluster;

/**
 * Opens a connection to REDIS_URL: the server itself, or, with REDIS_CLUSTER=true, the cluster it
 * belongs to (the node named is only where discovery starts). `options` apply to every node.
 */
export function openRedis(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER'>, options: RedisOptions): RedisConnection {
  if (!config.REDIS_CLUSTER) return new Redis(config.REDIS_URL, options);
  const url = new URL(config.REDIS_URL);
  const redisOptions: RedisOptions = {
    ...options,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  return new Cluster([{ host: url.hostname, port: Number(url.port || 6379) }], {
    redisOptions,
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    maxRedirections: 16,
  });
}

/**
 * The prefix of every BullMQ and limiter key. On a cluster it is a hash tag ({…}): the keys a
 * BullMQ script touches together must live in one slot, and the tag puts all of them there.
 */
export function redisKeyPrefix(config: Pick<AppConfig, 'QUEUE_PREFIX' | 'REDIS_CLUSTER'>): string {
  return config.REDIS_CLUSTER ? `{${config.QUEUE_PREFIX}}` : config.QUEUE_PREFIX;
}
