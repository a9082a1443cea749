import { Module } from '@nestjs/common';
import { loadContract } from '#contract/openapi-document.js';
import { AccessTokenCallers } from '#core/oauth/access-token-callers.js';
import { ContractSchemas } from '#mcp-tools/contract-schemas.js';
import { SchedulingToolbox } from '#mcp-tools/mcp-server.js';
import { McpCaller } from './mcp-caller.js';
import { McpController } from './mcp.controller.js';

/**
 * Until the OAuth server binds the real one (docs/design-record.md#d30), no token is known: /mcp
 * answers every call 401, naming where its metadata is.
 */
class NoAccessTokens extends AccessTokenCallers {
  callerOf(): Promise<null> {
    return Promise.resolve(null);
  }
}

/** The remote MCP server at /mcp (docs/design-record.md#d30). */
@Module({
  controllers: [McpController],
  providers: [
    McpCaller,
    // The tools of the stdio server, from the same contract: both list exactly the same tools.
    { provide: SchedulingToolbox, useFactory: () => new SchedulingToolbox(new ContractSchemas(loadContract().document)) },
    { provide: AccessTokenCallers, useClass: NoAccessTokens },
  ],
})
export class McpModule {}
