import { median, significant, spread } from './stats.js';

export interface Target {
  op: '>=' | '<=' | '==';
  value: number;
}

/** One number a scenario reports: the median over its rounds, with the spread of the rounds. */
export interface Figure {
  scenario: string;
  name: string;
  unit: string;
  median: number;
  /** Lowest and highest per-round value; null for a figure measured once. */
  spread: [number, number] | null;
  target: Target | null;
  /** Whether the median meets the target; null without a target. */
  met: boolean | null;
}

function meets(value: number, target: Target): boolean {
  switch (target.op) {
    case '>=':
      return value >= target.value;
    case '<=':
      return value <= target.value;
    case '==':
      return value === target.value;
  }
}

/** A figure from per-round values (ratios, rates): their median and spread. */
export function figure(scenario: string, name: string, unit: string, values: readonly number[], target?: Target): Figure {
  const value = significant(median(values));
  return {
    scenario,
    name,
    unit,
    median: value,
    spread: values.length > 1 ? (spread(values).map((v) => significant(v)) as [number, number]) : null,
    target: target ?? null,
    met: target ? meets(value, target) : null,
  };
}

/** Per-round ratios of two arms measured in the same rounds: a[i] / b[i]. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]);
}
