// Thumbnails under a flood (docs/architecture.md §3a): one user uploads 6300×6300 PNGs 12 at a
// time without pause while another user uploads a tiny PNG one at a time; the tiny upload's
// round trip (stored, thumbnail made, answered) is measured, idle first, then under the flood.
// A fresh MariaDB database; the server is a child process, quotas lifted so the flood keeps going.
//   node --import tsx bench/thumbnail-fairness.ts [--samples 40] [--flooders 12]
//     [--baseline-code DIR]  run the server of another checkout (the code before a change) instead
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { api } from '@common/api';
import { createRoom, login, type LoggedInUser } from '../protocol-harness/src/load/chat-rest';
import { createBenchDatabase } from './lib/mariadb';
import { quantile } from './lib/quantile';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '40' },
    flooders: { type: 'string', default: '12' },
    'baseline-code': { type: 'string' },
  },
});
const SAMPLES = Number(args.samples);
const FLOODERS = Number(args.flooders);
const PASSWORD = 'bench-thumbs-pass';
const PREFIX = 'benchthumb';
const SIDE = 6300;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** A 6300×6300 PNG of a pattern with sparse noise: about 40 megapixels to decode, about 23 MiB to send. */
async function giantPng(): Promise<Buffer> {
  const raw = Buffer.alloc(SIDE * SIDE * 3);
  let seed = 1;
  for (let y = 0; y < SIDE; y += 1) {
    for (let x = 0; x < SIDE; x += 1) {
      const i = (y * SIDE + x) * 3;
      seed = (seed * 1103515245 + 12345) >>> 0;
      raw[i] = (x ^ y) & 255;
      raw[i + 1] = (x * 3 + y) & 255;
      raw[i + 2] = seed >>> 24 < 44 ? (seed >>> 8) & 255 : 0;
    }
  }
  return sharp(raw, { raw: { width: SIDE, height: SIDE, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
}

async function upload(base: string, who: LoggedInUser, roomId: number, body: Buffer): Promise<number> {
  const res = await fetch(`${base}${api.attachmentUpload}?chatRoomId=${roomId}`, {
    method: 'POST',
    headers: { cookie: who.cookie, 'content-type': 'image/png', 'x-file-name': 'p.png' },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  return res.status;
}

async function measure(base: string, who: LoggedInUser, roomId: number, tiny: Buffer): Promise<{ p50: number; p90: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const t0 = performance.now();
    const status = await upload(base, who, roomId, tiny);
    if (status !== 200) throw new Error(`tiny upload answered ${status}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p90: quantile(times, 0.9), max: times[times.length - 1] };
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('thumbs');
  const env = { ...process.env, DATABASE_URL: database.url };
  const root = args['baseline-code'] ?? ROOT;
  try {
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'migrate'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', '3', '--password', PASSWORD, '--prefix', PREFIX], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const server = await startServer({
      root,
      env: {
        DATABASE_URL: database.url,
        // The flood must reach the thumbnails: no quota or rate in its way.
        ATTACHMENTS_UNSENT_QUOTA_BYTES: String(2 ** 40), ATTACHMENTS_DAILY_QUOTA_BYTES: String(2 ** 40),
      },
    });
    try {
      const [flooder, victim, friend] = await Promise.all([1, 2, 3].map((n) => login(server.url, { email: `${PREFIX}${n}@example.test`, password: PASSWORD })));
      const floodRoom = await createRoom(server.url, flooder, friend);
      const victimRoom = await createRoom(server.url, victim, friend);
      const tiny = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 9, g: 99, b: 199 } } }).png().toBuffer();
      const giant = await giantPng();
      log(`tiny PNG ${tiny.length} B, giant PNG ${SIDE}×${SIDE} ${(giant.length / 2 ** 20).toFixed(1)} MiB`);

      await measure(server.url, victim, victimRoom, tiny); // warm-up
      const idle = await measure(server.url, victim, victimRoom, tiny);
      log(`idle: tiny upload p50 ${idle.p50.toFixed(0)} ms, p90 ${idle.p90.toFixed(0)} ms, max ${idle.max.toFixed(0)} ms`);

      let flooding = true;
      let giants = 0;
      const loops = Array.from({ length: FLOODERS }, async () => {
        while (flooding) {
          const status = await upload(server.url, flooder, floodRoom, giant);
          if (status !== 200) throw new Error(`giant upload answered ${status}`);
          giants += 1;
        }
      });
      // Let the flood fill the queue before measuring.
      while (giants < 2 && flooding) await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      const flood = await measure(server.url, victim, victimRoom, tiny);
      const seconds = (performance.now() - t0) / 1000;
      flooding = false;
      await Promise.all(loops);
      log(`flood (${FLOODERS} giant uploads at a time, ${giants} made): tiny upload p50 ${flood.p50.toFixed(0)} ms, p90 ${flood.p90.toFixed(0)} ms, max ${flood.max.toFixed(0)} ms over ${seconds.toFixed(1)} s`);
      console.log(JSON.stringify({ idle, flood, giants, flooders: FLOODERS, samples: SAMPLES }));
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
