import { Injectable } from '@nestjs/common';
import { CursorCodec } from '../pagination/cursor-codec.js';
import type { Page } from '../pagination/page.js';
import { paginateInUpdateOrder, type UpdateOrderQuery } from '../pagination/update-order.js';
import { clientLookup, lookupFilters } from './client-lookup.js';
import type { ClientRecord } from './client-record.js';
import { BusinessCountryRepository } from './business-country.repository.js';
import { ClientsRepository } from './clients.repository.js';
import { isNationalForm } from './phone.js';

/**
 * GET /clients. Apart from ClientsService so that the contexts that only write clients (the
 * fixtures loader) need no cursor secret.
 */
@Injectable()
export class ClientReadsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly cursors: CursorCodec,
    private readonly countries: BusinessCountryRepository,
  ) {}

  /** The list, or with `phone`/`email` the lookup of D21 (the cursor is bound to them). */
  async list(businessId: string, query: UpdateOrderQuery & { phone?: string; email?: string }): Promise<Page<ClientRecord>> {
    // A phone in national form is read in the business's country (docs/design-record.md#d23).
    const country = query.phone !== undefined && isNationalForm(query.phone) ? await this.countries.countryOf(businessId) : null;
    const lookup = clientLookup(query, country);
    return paginateInUpdateOrder(
      this.cursors,
      'clients',
      businessId,
      query,
      (since, request) => this.clients.listPage(businessId, since, request, lookup),
      lookupFilters(lookup),
    );
  }
}
