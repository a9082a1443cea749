import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { ClientReadsService } from '#core/clients/client-reads.service.js';
import { ClientsService } from '#core/clients/clients.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidBody, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toClient } from '../mappers/client.mapper.js';
import { toList } from '../mappers/page.mapper.js';

@Controller()
export class ClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly clientReads: ClientReadsService,
  ) {}

  @Operation('createClient')
  async createClient(@CurrentKey() key: AuthenticatedKey, @ValidBody() body: RequestBody<'createClient'>): Promise<Schemas['Client']> {
    return toClient(await this.clients.create(key, body));
  }

  @Operation('getClient')
  async getClient(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['Client']> {
    return toClient(await this.clients.get(key.businessId, id));
  }

  @Operation('listClients')
  async listClients(@CurrentKey() key: AuthenticatedKey, @ValidQuery() query: ListQuery<'listClients'>): Promise<Schemas['ClientList']> {
    return toList(await this.clientReads.list(key.businessId, query), toClient);
  }
}
