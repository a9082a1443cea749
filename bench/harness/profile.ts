import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../settings.js';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The .cpuprofile format that `node --cpu-prof` writes (Chrome DevTools); times in µs of the monotonic clock. */
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CostLine {
  /** Function and where it is (`name (file:line)`), or a package or area of the code. */
  what: string;
  /** Share of the busy (non-idle) CPU time. */
  share: number;
}

export interface ProfileSummary {
  /** Busy CPU time the profile covers, in ms. */
  busyMs: number;
  /** Self time by area: a package in node_modules, our code, Node's internals, GC. */
  byArea: CostLine[];
  /** The functions with the most self time. */
  topFunctions: CostLine[];
}

/** Where a function lives, for grouping: the npm package, our app or lib folder, or Node itself. */
function areaOf(frame: CpuProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName === '(garbage collector)' ? 'GC' : `native ${functionName}`;
  if (url.startsWith('node:')) return 'node (built-in modules)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const ours = /dist\/((?:apps|libs)\/[^/]+)\//.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  return url.replace(`file://${REPO_ROOT}/`, '');
}

function describe(frame: CpuProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const file = frame.url.replace(`file://${REPO_ROOT}/`, '').replace(/^.*node_modules\//, '');
  return `${name} (${file}:${frame.lineNumber + 1})`;
}

function top(totals: Map<string, number>, busy: number, count: number): CostLine[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([what, us]) => ({ what, share: Math.round((us / busy) * 1000) / 1000 }));
}

/** Self time by area and by function, from a `--cpu-prof` file, from `fromMicros` on; idle time left out. */
export function summarizeProfile(path: string, fromMicros: number, count = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const frame = frames.get(id)!;
    if (at < fromMicros || frame.functionName === '(idle)') return;
    busy += us;
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const fn = describe(frame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  return { busyMs: Math.round(busy / 1000), byArea: top(byArea, busy, count), topFunctions: top(byFunction, busy, count) };
}

interface AllocationNode {
  callFrame: CpuProfileNode['callFrame'];
  selfSize: number;
  children: AllocationNode[];
}

export interface AllocationSummary {
  /** Bytes allocated per request (or per delivery) under the measured load, collected since or not. */
  bytesPerRequest: number;
  /** Share of the bytes by area, as for CPU. */
  byArea: CostLine[];
  /** The functions that allocated most themselves. */
  topFunctions: CostLine[];
}

/** Bytes allocated by area and by function, from a sampling heap profile that kept collected objects (profiling-preload.ts). */
export function summarizeAllocations(path: string, requests: number, count = 12): AllocationSummary {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: AllocationNode };
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: AllocationNode): void => {
    if (node.selfSize > 0) {
      total += node.selfSize;
      const area = areaOf(node.callFrame);
      byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
      const fn = describe(node.callFrame);
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
    }
    node.children.forEach(visit);
  };
  visit(head);
  return {
    bytesPerRequest: Math.round(total / Math.max(requests, 1)),
    byArea: top(byArea, total, count),
    topFunctions: top(byFunction, total, count),
  };
}
