import type { Bench, ScenarioReport, Service } from '../harness/bench.js';
import { figure } from '../harness/figures.js';
import { loadArm, type ArmSample } from '../harness/load.js';
import { meRequests } from './s1-me.js';

/**
 * H0, first of all: raw node:http answering a constant, loaded like every other arm. One of the
 * two cores must be saturated (the server's or the generator's): otherwise something else on the
 * machine took them, and every figure of the run is suspect. Its rate is the most this harness
 * measures; when the generator's core is the saturated one, a raw arm near that rate (S1's) is a
 * lower bound, while the arms of the API, at a twentieth of it, stay limited by the API.
 */
export async function harnessCheck(bench: Bench, hello: Service): Promise<ScenarioReport> {
  const arm = loadArm('raw node:http', hello, bench.options.connections, meRequests(bench));
  const samples: ArmSample[] = [];
  await arm.run(bench.options.warmupSeconds);
  for (let round = 1; round <= bench.options.rounds; round++) {
    samples.push(await arm.run(bench.options.armSeconds));
    bench.log(`  H0 round ${round}: ${arm.describe(samples.at(-1)!)}`);
  }
  return {
    id: 'H0',
    title: 'Harness check: raw node:http hello',
    method: 'node:http answering a constant on the app core; autocannon on the other core, 50 connections, no pipelining.',
    figures: [
      figure(
        'H0',
        'hello throughput',
        'req/s',
        samples.map((s) => s.rps),
      ),
      figure(
        'H0',
        'busier core: server or generator CPU share (1 = saturated)',
        'share',
        samples.map((s) => Math.max(s.appCpuShare, s.generatorCpuShare)),
        {
          op: '>=',
          value: 0.9,
        },
      ),
      figure(
        'H0',
        'hello server CPU share',
        'share',
        samples.map((s) => s.appCpuShare),
      ),
      figure(
        'H0',
        'load generator CPU share',
        'share',
        samples.map((s) => s.generatorCpuShare),
      ),
      figure(
        'H0',
        'hello CPU per request',
        'µs',
        samples.map((s) => s.cpuUsPerRequest),
      ),
    ],
    rounds: { 'raw node:http': samples },
  };
}
