import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, RequestHandler, Response } from 'express';
import type { Scope } from '#contract/generated/operations.js';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';
import type { ApiRequest } from '#http/api-request.js';
import { businessTimeZone, createMcpServer, SchedulingToolbox } from '#mcp-tools/mcp-server.js';
import { SchedulingClient } from '#sdk/index.js';
import { Public, ReadsOwnBody } from '../auth/route-access.decorators.js';
import { readJsonBody } from '../http/json-body.js';
import { inProcessFetch } from './in-process-fetch.js';
import { McpCaller, type McpRefusal } from './mcp-caller.js';

/** Where the remote MCP server is served: outside the API's /v1/api prefix (configure-app.ts). */
export const MCP_PATH = 'mcp';

/**
 * The SDK client's key: SchedulingClient requires one, and the in-process fetch drops the header
 * it makes of it. The caller travels on the request instead (inProcessFetch).
 */
const PLACEHOLDER_KEY = 'in-process';

/**
 * The remote MCP server (docs/design-record.md#d30): Streamable HTTP, stateless, one server and
 * transport per POST, the same tools as the stdio server. Public to the API's key guard: it
 * authenticates its own callers by OAuth access token (McpCaller), then every tool call goes through
 * the REST API in process, under the caller's grant.
 */
@Controller(MCP_PATH)
@Public()
@ReadsOwnBody()
export class McpController {
  constructor(
    private readonly caller: McpCaller,
    private readonly toolbox: SchedulingToolbox,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * The businesses' time zones, kept a few minutes: a server lives for one request here, and
   * without them each tool call that shows a time would cost the grant a GET /me of its rate limit.
   */
  private readonly timeZones = new RecentTimeZones();

  @Post()
  async post(@Req() req: ApiRequest & Request, @Res() res: Response): Promise<void> {
    const caller = await this.caller.authenticate(req);
    if ('status' in caller) return refuse(res, caller, null);
    // Only now, for a caller known, the body is read: 64 KiB at most, as every request's.
    await readJsonBody(req, res);
    if (req.bodyError) {
      res.status(req.bodyError === 'PAYLOAD_TOO_LARGE' ? 413 : 400);
      res.json(rpcError(null, -32700, 'The body is not a JSON-RPC message of at most 64 KiB.'));
      return;
    }
    const stepUp = this.caller.stepUp(caller, this.scopesNeeded(req.body));
    if (stepUp) return refuse(res, stepUp, callId(req.body));

    const sdk = this.sdkFor(caller);
    const server = createMcpServer(this.toolbox, sdk, (signal) => this.timeZones.of(caller.businessId, businessTimeZone(sdk), signal));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** Stateless: no stream to open and no session to end. */
  @Get()
  @HttpCode(405)
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @HttpCode(405)
  delete(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  /** The SDK client of one request: the REST API in this process, as the caller. */
  private sdkFor(caller: ApiKeyLookup): SchedulingClient {
    const app = this.adapterHost.httpAdapter.getInstance<RequestHandler>();
    return new SchedulingClient({
      // Never dialled: the fetch below dispatches into the app.
      baseUrl: 'http://in-process.invalid',
      apiKey: PLACEHOLDER_KEY,
      fetch: inProcessFetch((req, res) => void app(req as Request, res as Response, () => undefined), caller),
      userAgent: 'scheduling-mcp-remote',
      // The API's answer is the tool's: a 429 or a 5xx goes back to the model rather than waiting here.
      maxRetries: 0,
    });
  }

  /** The scopes the body's tool calls need (their operations', from the contract), tool by tool. */
  private scopesNeeded(body: unknown): { tool: string; scope: Scope }[] {
    const needed: { tool: string; scope: Scope }[] = [];
    for (const message of Array.isArray(body) ? body : [body]) {
      const call = message as { method?: unknown; params?: { name?: unknown } } | null;
      if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
      const scope = this.toolbox.scopeOf(call.params.name);
      if (scope) needed.push({ tool: call.params.name, scope });
    }
    return needed;
  }
}

function refuse(res: Response, refusal: McpRefusal, id: string | number | null): void {
  res
    .status(refusal.status)
    .set('WWW-Authenticate', refusal.wwwAuthenticate)
    .json(rpcError(id, -32001, refusal.message));
}

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .set('Allow', 'POST')
    .json(rpcError(null, -32000, 'This MCP server is stateless: send each JSON-RPC message as a POST.'));
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id of a single request, for its error answer; null for a batch or a body without one. */
function callId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const TIME_ZONE_KEPT_MS = 5 * 60_000;

/** A business's time zone as GET /me last said it, for a few minutes (an owner may change it). */
class RecentTimeZones {
  private readonly known = new Map<string, { timeZone: string; until: number }>();

  async of(businessId: string, read: (signal: AbortSignal) => Promise<string | null>, signal: AbortSignal): Promise<string | null> {
    const now = Date.now();
    const kept = this.known.get(businessId);
    if (kept && kept.until > now) return kept.timeZone;
    const timeZone = await read(signal);
    if (timeZone !== null) {
      // Expired entries go as new ones come, so the map holds the businesses of the last minutes.
      for (const [id, entry] of this.known) if (entry.until <= now) this.known.delete(id);
      this.known.set(businessId, { timeZone, until: now + TIME_ZONE_KEPT_MS });
    }
    return timeZone;
  }
}
