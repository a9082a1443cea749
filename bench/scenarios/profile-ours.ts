import type { Bench, ProfileReport } from '../harness/bench.js';
import { loadArm, type Requests } from '../harness/load.js';

/**
 * One arm of ours again, on an API started with --cpu-prof: where its CPU goes, and how many
 * SQL statements a request sends.
 */
export async function profileOurs(bench: Bench, scenario: string, load: Requests): Promise<ProfileReport> {
  const profiled = bench.newProfile(scenario);
  const api = await bench.startApi(`api (${scenario}, profiled)`, profiled);
  try {
    const arm = loadArm('ours (profiled)', api, bench.options.connections, load);
    await arm.run(bench.options.warmupSeconds);
    api.process.send('mark');
    const measured = await arm.run(bench.options.armSeconds);
    bench.log(`  ${scenario} profiled: ${arm.describe(measured)}`);
    const cpuMs = (measured.cpuUsPerRequest * measured.requests) / 1000;
    return await bench.finishProfile(api.process, profiled, `API under ${scenario} load`, measured.requests, cpuMs);
  } finally {
    await api.process.stop();
  }
}
