import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ApiKeyEntity } from '#database/entities/api-key.entity.js';
import type { Plan } from '#database/entities/business.entity.js';
import { preparedQuery } from '#database/prepared-query.js';
import { managerFor } from '#database/transaction-context.js';

/** What one authenticated request needs to know about its key, read in one query. */
export interface ApiKeyLookup {
  keyId: string;
  keyName: string;
  prefix: string;
  scopes: string[];
  keyCreatedAt: Date;
  businessId: string;
  businessSlug: string;
  plan: Plan;
}

interface ApiKeyLookupRow {
  key_id: string;
  key_name: string;
  prefix: string;
  scopes: string[];
  key_created_at: Date;
  business_id: string;
  business_slug: string;
  plan: Plan;
}

// Every request whose key is not in the lookup cache runs it.
const FIND_ACTIVE_BY_HASH = {
  name: 'find_active_api_key',
  text: `SELECT k.id AS key_id, k.name AS key_name, k.prefix, k.scopes, k.created_at AS key_created_at,
              b.id AS business_id, b.slug AS business_slug, b.plan
         FROM api_keys k JOIN businesses b ON b.id = k.business_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
};

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The one lookup that precedes knowing the business: by the key's hash. */
  async findActiveByHash(keyHash: string): Promise<ApiKeyLookup | null> {
    const rows = await preparedQuery<ApiKeyLookupRow>(this.dataSource.manager, FIND_ACTIVE_BY_HASH, [keyHash]);
    const row = rows[0];
    if (!row) return null;
    return {
      keyId: row.key_id,
      keyName: row.key_name,
      prefix: row.prefix,
      scopes: row.scopes,
      keyCreatedAt: row.key_created_at,
      businessId: row.business_id,
      businessSlug: row.business_slug,
      plan: row.plan,
    };
  }

  async insert(key: ApiKeyEntity, manager?: EntityManager): Promise<void> {
    await managerFor(this.dataSource, manager).getRepository(ApiKeyEntity).insert(key);
  }

  /** Revokes the business's active keys with this prefix; returns how many. */
  async revokeByPrefix(businessId: string, prefix: string): Promise<number> {
    const result = await this.dataSource
      .getRepository(ApiKeyEntity)
      .update({ businessId, prefix, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return result.affected ?? 0;
  }
}
