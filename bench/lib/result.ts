// What each benchmark part hands to bench/run.ts: rows of figures, each beside its baseline
// and goal, printed as the last line of the part's stdout (one JSON object).

export interface Figure {
  measure: string;
  value: string;
  /** The same measure for the baseline, from the same run. */
  baseline?: string;
  ratio?: string;
  goal?: string;
  /** "met", or by how much it was missed. */
  verdict?: string;
}

export interface PartResult {
  title: string;
  figures: Figure[];
  /** Method, how cores were shared, what limits the figure. */
  notes: string[];
  /** Optional extra table, already in Markdown (e.g. the steps of a rate sweep). */
  detail?: string;
}

export const RESULT_MARK = 'BENCH-RESULT ';

/** Prints the part's result where bench/run.ts looks for it. */
export function emitResult(result: PartResult): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
}

/** "met", or how far a figure is from an upper-bound goal. */
export function upperGoal(value: number, goal: number, unit: string): string {
  return value <= goal ? 'met' : `missed by ${(value - goal).toFixed(2)} ${unit} (${(value / goal).toFixed(2)}× the goal)`;
}

/** "met", or how far a figure is from a lower-bound goal. */
export function lowerGoal(value: number, goal: number, unit: string): string {
  return value >= goal ? 'met' : `missed by ${(goal - value).toFixed(0)} ${unit} (${((value / goal) * 100).toFixed(0)}% of the goal)`;
}
