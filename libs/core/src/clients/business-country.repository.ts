import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';

const BUSINESS_COUNTRY = defineStatement<[businessId: string], { country: string }>({
  name: 'business_country',
  text: `SELECT country FROM businesses WHERE id = $1`,
});

/**
 * The country a client phone written in national form is read in (docs/design-record.md#d23):
 * the business's. A sandbox row copies its live business's country (docs/design-record.md#d19).
 */
@Injectable()
export class BusinessCountryRepository {
  constructor(private readonly database: Database) {}

  async countryOf(businessId: string): Promise<string | null> {
    const row = await this.database.maybeOne(BUSINESS_COUNTRY, [businessId]);
    return row?.country ?? null;
  }
}
