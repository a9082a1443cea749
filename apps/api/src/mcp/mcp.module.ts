import { Module } from '@nestjs/common';
import { loadContract } from '#contract/openapi-document.js';
import { OAuthModule } from '#core/oauth/oauth.module.js';
import { ContractSchemas } from '#mcp-tools/contract-schemas.js';
import { SchedulingToolbox } from '#mcp-tools/mcp-server.js';
import { McpCaller } from './mcp-caller.js';
import { McpController } from './mcp.controller.js';

/** The remote MCP server at /mcp (docs/design-record.md#d30). */
@Module({
  // Its callers are the access tokens issued for it (AccessTokenCallers).
  imports: [OAuthModule],
  controllers: [McpController],
  providers: [
    McpCaller,
    // The tools of the stdio server, from the same contract: both list exactly the same tools.
    { provide: SchedulingToolbox, useFactory: () => new SchedulingToolbox(new ContractSchemas(loadContract().document)) },
  ],
})
export class McpModule {}
