import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(endpoint: WebhookEndpointEntity, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).getRepository(WebhookEndpointEntity).insert(endpoint);
  }
}
