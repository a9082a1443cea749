import autocannon, { type AutocannonOptions, type AutocannonRequest } from 'autocannon';
import { Agent, request } from 'undici';
import type { PinnedProcess } from './pinned-process.js';
import { serviceCpu, serviceCpuPer, type ServiceCpu } from './service-cpu.js';

/** One request for the load generator to send. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What one arm of one round measured. */
export interface ArmSample {
  /** Completed requests per second. */
  rps: number;
  requests: number;
  seconds: number;
  /** Share of the responses that were 2xx (the rate limiter admitted them and they succeeded). */
  admitted: number;
  statusCounts: Record<string, number>;
  errors: number;
  latencyMs: { mean: number; p50: number; p99: number };
  /** CPU time of the measured process per completed request, in microseconds. */
  cpuUsPerRequest: number;
  /** CPU time of the measured process over the arm's wall time: ~1 when it saturates its core. */
  appCpuShare: number;
  /** The same for the load generator (this process): near 1 means the generator, not the app, was the limit. */
  generatorCpuShare: number;
  /** CPU time of PostgreSQL and of Redis per completed request, in microseconds (service-cpu.ts). */
  engineCpuUsPerRequest: ServiceCpu;
}

/**
 * What to send: a fixed list, dealt out to the connections (each loops over its own share, so a
 * key is never used by two connections at once), or a function that makes every request anew
 * (unique bodies). A fixed list costs the generator far less: autocannon encodes it once.
 */
export type Requests = { fixed: RequestSpec[] } | { each: () => RequestSpec };

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  seconds: number;
  requests: Requests;
}

function toAutocannon(spec: RequestSpec): AutocannonRequest {
  return { method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
}

/** autocannon's request options for a request source. */
function requestOptions(requests: Requests, connections: number): Pick<AutocannonOptions, 'requests' | 'setupClient'> {
  if ('each' in requests) {
    const setupRequest = (request: AutocannonRequest): AutocannonRequest => ({ ...request, ...toAutocannon(requests.each()) });
    return { requests: [{ setupRequest }] };
  }
  let client = 0;
  return {
    setupClient: (connection) => {
      const mine = client++ % connections;
      connection.setRequests(requests.fixed.filter((_, i) => i % connections === mine).map(toAutocannon));
    },
  };
}

/**
 * Drives `target` with autocannon (no pipelining) for a fixed time, keys and ids rotating as
 * `requests` says; the target's CPU time comes from /proc around the run.
 */
export async function runArm(target: PinnedProcess, options: LoadOptions): Promise<ArmSample> {
  const cpuBefore = target.cpuMs();
  const enginesBefore = serviceCpu();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    pipelining: 1,
    duration: options.seconds,
    timeout: 30,
    ...requestOptions(options.requests, options.connections),
  });
  const wallMs = performance.now() - started;
  const appCpuMs = target.cpuMs() - cpuBefore;
  const own = process.cpuUsage(ownBefore);
  const requests = result.requests.total;
  const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: requests / result.duration,
    requests,
    seconds: result.duration,
    admitted: requests === 0 ? 0 : result['2xx'] / requests,
    statusCounts,
    errors: result.errors,
    latencyMs: { mean: result.latency.average, p50: result.latency.p50, p99: result.latency.p99 },
    cpuUsPerRequest: requests === 0 ? 0 : (appCpuMs * 1000) / requests,
    appCpuShare: appCpuMs / wallMs,
    generatorCpuShare: (own.user + own.system) / 1000 / wallMs,
    engineCpuUsPerRequest: serviceCpuPer(enginesBefore, requests),
  };
}

export interface BurstResult {
  statusCounts: Record<string, number>;
  seconds: number;
}

/** Sends every request at once, each on its own connection, and counts the answers by status. */
export async function burst(baseUrl: string, specs: RequestSpec[]): Promise<BurstResult> {
  const agent = new Agent({ connections: specs.length, pipelining: 0 });
  const started = performance.now();
  try {
    const statuses = await Promise.all(
      specs.map(async (spec) => {
        const response = await request(`${baseUrl}${spec.path}`, {
          method: spec.method,
          headers: spec.headers,
          body: spec.body,
          dispatcher: agent,
        });
        await response.body.dump();
        return response.statusCode;
      }),
    );
    const statusCounts: Record<string, number> = {};
    for (const status of statuses) statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    return { statusCounts, seconds: (performance.now() - started) / 1000 };
  } finally {
    await agent.close();
  }
}

/** An arm that loads one service with autocannon. */
export function loadArm(name: string, target: { process: PinnedProcess; baseUrl: string }, connections: number, requests: Requests) {
  return {
    name,
    run: (seconds: number) => runArm(target.process, { baseUrl: target.baseUrl, connections, seconds, requests }),
    describe: (s: ArmSample) =>
      `${Math.round(s.rps)} req/s, p50 ${s.latencyMs.p50} ms, ${Math.round(s.cpuUsPerRequest)} µs CPU/req, ` +
      `app CPU ${s.appCpuShare.toFixed(2)}, generator CPU ${s.generatorCpuShare.toFixed(2)}, ` +
      `2xx ${(s.admitted * 100).toFixed(1)}%${s.errors > 0 ? `, ${s.errors} errors` : ''}`,
  };
}
