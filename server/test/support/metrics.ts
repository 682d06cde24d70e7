// One value of the server's GET /metrics (Prometheus text), for tests that wait on a count the
// server keeps: a metric moving is often the only event marking work done in the background.
import type { HasUrl } from './stomp-client';

/** The value of `name` with exactly these labels (`outcome="sent"`), 0 when not reported yet. */
export async function metricValue(server: HasUrl, token: string, name: string, labels = ''): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  const text = await res.text();
  const series = labels === '' ? name : `${name}{${labels}}`;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
