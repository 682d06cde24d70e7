// Facts about the machine a benchmark ran on, for the top of bench/results/latest.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return 'unknown';
  }
}

export interface MachineFacts {
  [fact: string]: string;
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length} logical cores`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    mariadb: run('mysql', ['-uroot', '-h127.0.0.1', '-N', '-e', 'select concat(version(), ", innodb_flush_log_at_trx_commit=", @@innodb_flush_log_at_trx_commit, ", buffer pool ", @@innodb_buffer_pool_size DIV 1048576, " MiB")']),
    rabbitmq: run('rabbitmqctl', ['version']),
    load: os.loadavg().map((l) => l.toFixed(2)).join(' ') + ' (1, 5, 15 min load average at start)',
  };
}
