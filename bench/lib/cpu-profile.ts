// The hottest functions of a V8 CPU profile (node --cpu-prof), by self time: what limits a
// benchmark that misses its goal.
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface HotFunction {
  name: string;
  selfPercent: number;
}

/** Module loading and TypeScript compilation at start-up: not what limits a steady load. */
const STARTUP = /^node:internal\/(modules|bootstrap|deps\/cjs-module-lexer)|\/node_modules\/(tsx|esbuild)\//;

function label(frame: ProfileNode['callFrame'], root: string): string {
  const file = frame.url ? path.relative(root, frame.url.replace(/^file:\/\//, '')) : '';
  const name = frame.functionName || '(anonymous)';
  return file ? `${name} (${file}:${frame.lineNumber + 1})` : name;
}

/** Self-time shares of the top `count` functions in the main thread's profile in `dir`, start-up left out. */
export function hottestFunctions(dir: string, root: string, count = 8): HotFunction[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0) return [];
  // One file per thread (tsx's module loader runs in a worker): the main thread's is the largest.
  const main = files.map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  const profile = JSON.parse(fs.readFileSync(main, 'utf8')) as Profile;
  const hits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const n = node.hitCount ?? 0;
    if (n === 0 || node.callFrame.functionName === '(idle)' || STARTUP.test(node.callFrame.url)) continue;
    const key = label(node.callFrame, root);
    hits.set(key, (hits.get(key) ?? 0) + n);
    total += n;
  }
  return [...hits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, n]) => ({ name, selfPercent: (100 * n) / Math.max(total, 1) }));
}
