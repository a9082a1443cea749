import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { ClientReadsService } from '#core/clients/client-reads.service.js';
import { ClientsService } from '#core/clients/clients.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { RequireScope } from '../auth/route-access.decorators.js';
import { ContractBody, CurrentKey, IdParam } from '../http/contract-params.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import { PageQuery, type ListQuery } from '../http/page-query.js';
import { toClient } from '../mappers/client.mapper.js';
import { toList } from '../mappers/page.mapper.js';

@Controller('clients')
export class ClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly clientReads: ClientReadsService,
  ) {}

  /** createClient */
  @Post()
  @HttpCode(201)
  @RequireScope('clients.write')
  @Idempotent()
  async createClient(
    @CurrentKey() key: AuthenticatedKey,
    @ContractBody('createClient') body: RequestBody<'createClient'>,
  ): Promise<Schemas['Client']> {
    return toClient(await this.clients.create(key, body));
  }

  /** getClient */
  @Get(':id')
  @RequireScope('clients.read')
  async getClient(@CurrentKey() key: AuthenticatedKey, @IdParam() id: string): Promise<Schemas['Client']> {
    return toClient(await this.clients.get(key.businessId, id));
  }

  /** listClients */
  @Get()
  @RequireScope('clients.read')
  async listClients(
    @CurrentKey() key: AuthenticatedKey,
    @PageQuery('listClients') query: ListQuery<'listClients'>,
  ): Promise<Schemas['ClientList']> {
    return toList(await this.clientReads.list(key.businessId, query), toClient);
  }
}
