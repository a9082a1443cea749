import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { AppConfig, loadApiConfig } from '#config/app-config.js';
import { ConfigModule } from '#config/config.module.js';
import { ServedContractModule } from '#contract/served-contract.module.js';
import { ApiKeysModule } from '#core/api-keys/api-keys.module.js';
import { AppointmentReadsModule } from '#core/appointments/appointment-reads.module.js';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { BusinessesModule } from '#core/businesses/businesses.module.js';
import { ClientReadsModule } from '#core/clients/client-reads.module.js';
import { ClientsModule } from '#core/clients/clients.module.js';
import { IdempotencyModule } from '#core/idempotency/idempotency.module.js';
import { PaymentReadsModule } from '#core/payments/payment-reads.module.js';
import { ApiRateLimiter } from '#core/rate-limit/api-rate-limiter.js';
import { FailedAuthenticationLimiter } from '#core/rate-limit/failed-authentication-limiter.js';
import { RedisModule } from '#core/redis/redis.module.js';
import { SaleReadsModule } from '#core/sales/sale-reads.module.js';
import { StaffReadsModule } from '#core/staff/staff-reads.module.js';
import { AvailabilityModule } from '#core/availability/availability.module.js';
import { ServicesModule } from '#core/services/services.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { enableExtensions } from '#extensions/index.js';
import { RouteLayerModule } from '#http/route-layer.module.js';
import { JobProcessingModule } from '#jobs/processors/job-processing.module.js';
import { JobsModule } from '#jobs/jobs.module.js';
import { ApiVersionGuard } from './auth/api-version.guard.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { OAuthModule } from '#core/oauth/oauth.module.js';
import { PlanGuard } from './auth/plan.guard.js';
import { RateLimitGuard } from './auth/rate-limit.guard.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { ApiIndexController } from './docs/api-index.controller.js';
import { DocsController } from './docs/docs.controller.js';
import { HealthController } from './health/health.controller.js';
import { JsonLogsModule } from '#core/logging/json-logs.js';
import { RequestLogging } from './logging/request-log.middleware.js';
import { HttpMetrics } from './metrics/http-metrics.js';
import { MetricsServer } from './metrics/metrics-server.js';
import { OutboxMetrics } from './metrics/outbox-metrics.js';
import { NoticePipelineMetricsRepository } from '#core/notices/outbox/notice-pipeline-metrics.repository.js';
import { QueueMetrics } from './metrics/queue-metrics.js';
import { PoolShareMetrics } from './metrics/pool-share-metrics.js';
import { AppointmentsController } from './controllers/appointments.controller.js';
import { AppointmentWritesController } from './controllers/appointment-writes.controller.js';
import { ClientsController } from './controllers/clients.controller.js';
import { ContractDocumentController } from './controllers/contract-document.controller.js';
import { MeController } from './controllers/me.controller.js';
import { PaymentsController } from './controllers/payments.controller.js';
import { SalesController } from './controllers/sales.controller.js';
import { ServicesController } from './controllers/services.controller.js';
import { StaffController } from './controllers/staff.controller.js';
import { AvailabilityController } from './controllers/availability.controller.js';
import { EventsController } from './controllers/events.controller.js';
import { WebhookEndpointsController } from './controllers/webhook-endpoints.controller.js';
import { EventsModule } from '#core/notices/event-log/events.module.js';
import { WebhooksModule } from '#core/notices/webhooks.module.js';
import { JsonBodyGuard } from './http/json-body.js';
import { McpModule } from './mcp/mcp.module.js';
import { ProblemDetailsFilter } from './http/problem-details.filter.js';

function withRouteDependencies(module: DynamicModule): DynamicModule {
  return { ...module, imports: [...(module.imports ?? []), IdempotencyModule] };
}

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig = loadApiConfig()): DynamicModule {
    // The extensions this application serves (docs/extending.md): their contracts join the core's
    // in its ServedContract, and their modules load beside the core's.
    const extensions = enableExtensions(config.EXTENSIONS);
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        ServedContractModule.forRoot(extensions),
        // The route layer's validator (its schemas compiled at start) and secret answers.
        RouteLayerModule,
        DiscoveryModule,
        JsonLogsModule,
        TerminusModule,
        DatabaseModule.forRoot('scheduling-api'),
        RedisModule,
        BusinessesModule,
        ApiKeysModule,
        OAuthModule,
        ServicesModule,
        ClientsModule,
        IdempotencyModule,
        AppointmentReadsModule,
        AppointmentWritesModule,
        ClientReadsModule,
        PaymentReadsModule,
        SaleReadsModule,
        StaffReadsModule,
        AvailabilityModule,
        WebhooksModule,
        EventsModule,
        // The owner's console (docs/design-record.md#d29); CONSOLE=off serves none of its paths and
        // loads none of its code, Better Auth's included (docs/design-record.md#per-request-cost).
        ...(config.CONSOLE ? [import('./console/console.module.js').then(({ ConsoleModule }) => ({ module: ConsoleModule }))] : []),
        // The remote MCP server at /mcp, for AI assistants with OAuth access tokens (docs/design-record.md#d30).
        McpModule,
        // With Redis the worker app runs the jobs, and the API only looks at their queues; without
        // (IN_PROCESS_JOBS, `npm start`) this process runs the same jobs on in-memory queues.
        ...(config.IN_PROCESS_JOBS
          ? [JobsModule.forRoot({ driver: 'in-memory' }), JobProcessingModule]
          : [JobsModule.forRoot({ driver: 'bullmq', redis: 'process-client' })]),
        // The enabled extensions' modules, under the same global guards and filter as the core's
        // routes; each is given what @Operation's interceptors inject, as the core's controllers are.
        ...extensions.map(async (extension) => withRouteDependencies(await extension.api())),
      ],
      controllers: [
        HealthController,
        ApiIndexController,
        DocsController,
        ContractDocumentController,
        MeController,
        ServicesController,
        StaffController,
        AvailabilityController,
        ClientsController,
        AppointmentsController,
        AppointmentWritesController,
        PaymentsController,
        SalesController,
        WebhookEndpointsController,
        EventsController,
      ],
      providers: [
        ApiRateLimiter,
        FailedAuthenticationLimiter,
        HttpMetrics,
        RequestLogging,
        MetricsServer,
        OutboxMetrics,
        NoticePipelineMetricsRepository,
        QueueMetrics,
        PoolShareMetrics,
        // Global guards run in the order listed: the order of checks of docs/design-record.md#d2.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: ApiVersionGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: PlanGuard },
        { provide: APP_GUARD, useClass: ScopeGuard },
        // Then the body is read: never for a caller the checks above refused (docs/design-record.md#d25).
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
    };
  }
}
