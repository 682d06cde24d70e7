// GET requests over one kept-alive connection per client, with node:http: what a latency bench
// measures the server with. Node's fetch (undici) adds a tail of its own: on the 2-core bench
// machine a static file took p99 5.2 ms through fetch and 1.1–1.7 ms through node:http, both
// one request at a time against the same server (2026-11-25).
import http from 'node:http';

export interface Answer { status: number; body: Buffer }

export class KeepAliveGet {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly base: string) {}

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.get(this.base + path, { agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
