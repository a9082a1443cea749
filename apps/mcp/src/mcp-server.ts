import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CONTRACT_VERSION, isSchedulingApiError, type SchedulingClient } from '#sdk/index.js';
import type { ContractSchemas } from './contract-schemas.js';
import { describeInvalidInput, ToolInputValidator } from './tool-input-validator.js';
import { schedulingTools, ToolInputError, type SchedulingTool } from './tools.js';

/**
 * The MCP server. It uses the SDK's low-level `Server` rather than `McpServer` on purpose: McpServer
 * takes tool inputs as zod shapes, while ours are the contract's own JSON Schemas (ContractSchemas),
 * which the low-level server hands to clients as they are.
 */
export function createMcpServer(sdk: SchedulingClient, schemas: ContractSchemas): Server {
  const tools = new Map<string, SchedulingTool>(schedulingTools(sdk, schemas).map((tool) => [tool.name, tool]));
  const inputs = new ToolInputValidator([...tools.values()]);
  const server = new Server(
    { name: 'scheduling', title: 'Business Scheduling', version: CONTRACT_VERSION },
    { capabilities: { tools: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      annotations: {
        title: tool.title,
        readOnlyHint: tool.effect === 'read',
        // Meaningful only for a tool that writes (MCP's default for one is destructive).
        ...(tool.effect === 'read' ? {} : { destructiveHint: tool.effect === 'destructive' }),
        openWorldHint: false,
      },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) return failure(`Unknown tool ${request.params.name}; the tools are ${[...tools.keys()].join(', ')}.`);
    const input = request.params.arguments ?? {};
    const problems = inputs.problems(tool.name, input);
    if (problems.length > 0) return failure(describeInvalidInput(tool.name, problems));
    try {
      const output = await tool.run(input, extra.signal);
      return { content: [{ type: 'text', text: output.text }], structuredContent: output.structured };
    } catch (error) {
      return failure(describeFailure(error));
    }
  });
  return server;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An API problem names its code first ("SLOT_TAKEN: …"), then the fields at fault, or for
 * CLIENT_EXISTS the existing client's id, so an agent can act on it (book that client).
 */
export function describeFailure(error: unknown): string {
  if (isSchedulingApiError(error)) {
    // The detail often names the one field already; list the others.
    const fields = error.errors
      .filter((field) => !error.detail.includes(`${field.path}: ${field.message}`))
      .map((field) => `\n- ${field.path}: ${field.message}`)
      .join('');
    const existing = error.clientId
      ? `\nThe existing client's id is ${error.clientId}: book it with client: { id: "${error.clientId}" }.`
      : '';
    return `${error.code}: ${error.detail}${fields}${existing}${error.requestId ? `\n(request ${error.requestId})` : ''}`;
  }
  if (error instanceof ToolInputError) return `INVALID_INPUT: ${error.message}`;
  return `API_UNREACHABLE: ${error instanceof Error ? error.message : String(error)}`;
}
