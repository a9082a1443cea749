import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { WebhookEndpointsService } from '#core/notices/endpoints/webhook-endpoints.service.js';
import { WebhookTestPingService } from '#core/notices/endpoints/webhook-test-ping.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidBody, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toList } from '../mappers/page.mapper.js';
import { toCreatedWebhookEndpoint, toWebhookDelivery, toWebhookEndpoint } from '../mappers/webhook-endpoint.mapper.js';

/** Webhook endpoints through the API: REST hooks (docs/design-record.md#d17). */
@Controller()
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly testPing: WebhookTestPingService,
  ) {}

  @Operation('listWebhookEndpoints')
  async listWebhookEndpoints(@CurrentKey() key: AuthenticatedKey): Promise<Schemas['WebhookEndpointList']> {
    return { data: (await this.endpoints.list(key.businessId)).map(toWebhookEndpoint) };
  }

  @Operation('createWebhookEndpoint', { waitsOnNetwork: true })
  async createWebhookEndpoint(
    @CurrentKey() key: AuthenticatedKey,
    @ValidBody() body: RequestBody<'createWebhookEndpoint'>,
  ): Promise<Schemas['CreatedWebhookEndpoint']> {
    // Pinned to the body's apiVersion, else to the creating key's (docs/design-record.md#d22).
    return toCreatedWebhookEndpoint(await this.endpoints.create(key.businessId, body, key.tenantId, key.apiVersion));
  }

  @Operation('getWebhookEndpoint')
  async getWebhookEndpoint(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['WebhookEndpoint']> {
    return toWebhookEndpoint(await this.endpoints.get(key.businessId, id));
  }

  @Operation('updateWebhookEndpoint', { waitsOnNetwork: true })
  async updateWebhookEndpoint(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidBody() body: RequestBody<'updateWebhookEndpoint'>,
  ): Promise<Schemas['WebhookEndpoint']> {
    return toWebhookEndpoint(await this.endpoints.update(key.businessId, id, body, key.tenantId));
  }

  @Operation('deleteWebhookEndpoint')
  async deleteWebhookEndpoint(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<void> {
    await this.endpoints.delete(key.businessId, id);
  }

  @Operation('rotateWebhookEndpointSecret')
  async rotateWebhookEndpointSecret(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['CreatedWebhookEndpoint']> {
    return toCreatedWebhookEndpoint(await this.endpoints.rotateSecret(key.businessId, id));
  }

  @Operation('testWebhookEndpoint', { waitsOnNetwork: true })
  testWebhookEndpoint(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['WebhookTestResult']> {
    return this.testPing.ping({ id: key.businessId, slug: key.businessSlug, tenantId: key.tenantId }, id);
  }

  @Operation('listWebhookDeliveries')
  async listWebhookDeliveries(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidQuery() query: ListQuery<'listWebhookDeliveries'>,
  ): Promise<Schemas['WebhookDeliveryList']> {
    return toList(await this.endpoints.deliveries(key.businessId, id, query), toWebhookDelivery);
  }
}
