import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadContract } from '#contract/openapi-document.js';
import { SchedulingClient } from '#sdk/index.js';
import { ContractSchemas } from '#mcp-tools/contract-schemas.js';
import { McpConfigError, readMcpConfig } from './mcp-config.js';
import { createMcpServer, SchedulingToolbox } from '#mcp-tools/mcp-server.js';

/**
 * The Business Scheduling MCP server on stdio: stdout carries the protocol only, so anything for
 * people goes to stderr.
 */
async function main(): Promise<void> {
  const config = readMcpConfig(process.env);
  const sdk = new SchedulingClient({ baseUrl: config.apiUrl, apiKey: config.apiKey, userAgent: 'scheduling-mcp' });
  const server = createMcpServer(new SchedulingToolbox(new ContractSchemas(loadContract().document)), sdk);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`Scheduling MCP server ready (API ${config.apiUrl})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof McpConfigError
      ? `Cannot start: ${error.message}\n`
      : `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
