// CPU time a process has used so far (user + system), read from /proc: the server side of
// "CPU microseconds per delivery", whatever language the server is written in.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/** Microseconds of CPU used by the process (all its threads) since it started. */
export function processCpuMicros(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) / clockTicks()) * 1e6;
}

/** Resident set size of the process in bytes. */
export function processRssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return Number(kib ?? 0) * 1024;
}

/** The process and its descendants (a WORKERS=N supervisor and its workers), from /proc. */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8');
    } catch {
      continue; // gone
    }
    for (const c of children.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

/** CPU microseconds of the process and its descendants (those alive now; sample the same tree twice). */
export function treeCpuMicros(pids: readonly number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      sum += processCpuMicros(pid);
    } catch {
      /* gone */
    }
  }
  return sum;
}
