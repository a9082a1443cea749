import { Inject, Injectable } from '@nestjs/common';
import { newId } from '#database/new-id.js';
import { CLOCK, type Clock } from '../clock/clock.js';
import { NoticeSender } from './notice-sender.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { activeSecrets, signNotice } from './webhook-signature.js';

/** The notice type of a test (docs/design-record.md#d17): never one an endpoint subscribes to. */
export const TEST_NOTICE_TYPE = 'webhook.test';

/** What became of a test notice. */
export interface TestPingResult {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * POST /webhook-endpoints/{id}/test (docs/design-record.md#d17): one `webhook.test` notice, signed
 * as every notice is and sent by the same sender (the address checked again, 15 s in all, no
 * redirect followed), to this endpoint only, at once and outside the outbox: there is nothing to
 * retry and nothing to keep. An endpoint that is not active is tested too: that is how a business
 * finds out whether it can be enabled again.
 */
@Injectable()
export class WebhookTestPingService {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly sender: NoticeSender,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async ping(business: { id: string; slug: string }, endpointId: string): Promise<TestPingResult> {
    const endpoint = await this.endpoints.get(business.id, endpointId);
    const now = this.clock.now();
    const id = newId();
    const createdAt = now.toISOString();
    const body = JSON.stringify({
      id,
      type: TEST_NOTICE_TYPE,
      createdAt,
      business: business.slug,
      data: { id: endpoint.id, occurredAt: createdAt },
    });
    const timestamp = Math.floor(now.getTime() / 1000);
    const result = await this.sender.send({
      url: endpoint.url,
      id,
      timestamp,
      body,
      signature: signNotice({ id, timestamp, body, secrets: activeSecrets(endpoint, now) }),
    });
    return { delivered: result.delivered, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
  }
}
