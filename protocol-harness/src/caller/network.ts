// --network and --network-change-at: what an impaired network does to each UDP datagram of one
// side's media (udp-relay.ts). Parsed here, with the named profiles, so bad values are usage
// errors before anything runs.

export interface Impairment {
  /** Share of datagrams dropped, each direction, in %. */
  lossPct: number;
  /** Added one-way delay, each direction, in ms. */
  delayMs: number;
  /** Each datagram's delay varies uniformly within ±jitter (so datagrams may reorder), in ms. */
  jitterMs: number;
}

export const CLEAN: Impairment = { lossPct: 0, delayMs: 0, jitterMs: 0 };

/** Named profiles: rough figures of such links, each direction. */
export const NETWORK_PROFILES: Record<string, Impairment> = {
  clean: CLEAN,
  '3g': { lossPct: 2, delayMs: 100, jitterMs: 25 },
  'lossy-wifi': { lossPct: 5, delayMs: 15, jitterMs: 20 },
};

export type NetworkSide = 'caller' | 'callee' | 'both';

export interface NetworkChange {
  atSeconds: number;
  /** Only the fields it names change. */
  change: Partial<Impairment>;
  /** As given. */
  text: string;
}

export interface NetworkPlan {
  /** As given to --network. */
  asked: string;
  side: NetworkSide;
  impairment: Impairment;
  changes: NetworkChange[];
}

const FIELDS: Record<string, { key: keyof Impairment; unit: '%' | 'ms' }> = {
  loss: { key: 'lossPct', unit: '%' },
  delay: { key: 'delayMs', unit: 'ms' },
  jitter: { key: 'jitterMs', unit: 'ms' },
};

/**
 * "loss=5%,delay=100ms,jitter=30ms", a profile name ("3g"), or a profile with changes
 * ("3g,loss=10%"): the fields named replace the profile's. Throws with what is wrong.
 */
export function parseImpairment(text: string): Partial<Impairment> {
  const result: Partial<Impairment> = {};
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw new Error(`network "${text}": an empty part`);
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      const profile = NETWORK_PROFILES[part];
      if (!profile) throw new Error(`network "${text}": unknown profile ${part} (one of ${Object.keys(NETWORK_PROFILES).join(', ')})`);
      Object.assign(result, profile);
      continue;
    }
    const name = part.slice(0, eq).trim();
    const field = FIELDS[name];
    if (!field) throw new Error(`network "${text}": unknown setting ${name} (loss, delay or jitter)`);
    const m = /^(\d+(?:\.\d+)?)\s*(%|ms|s)?$/.exec(part.slice(eq + 1).trim());
    if (!m) throw new Error(`network "${text}": ${name} needs a number, e.g. ${name === 'loss' ? '5%' : '100ms'}`);
    let value = Number(m[1]);
    const unit = m[2];
    if (field.unit === '%') {
      if (unit !== '%') throw new Error(`network "${text}": loss is a percentage, e.g. loss=5%`);
      if (value > 100) throw new Error(`network "${text}": loss above 100%`);
    } else {
      if (unit === '%' || unit === undefined) throw new Error(`network "${text}": ${name} is a time, e.g. ${name}=100ms`);
      if (unit === 's') value *= 1000;
    }
    result[field.key] = value;
  }
  return result;
}

/** "10s:loss=0%" — at that many seconds after the call's media connected. */
export function parseNetworkChange(text: string): NetworkChange {
  const m = /^\s*(\d+(?:\.\d+)?)(s|ms)?\s*:(.+)$/.exec(text);
  if (!m) throw new Error(`network change "${text}": expected TIME:SETTINGS, e.g. 10s:loss=0%`);
  const atSeconds = m[2] === 'ms' ? Number(m[1]) / 1000 : Number(m[1]);
  return { atSeconds, change: parseImpairment(m[3]), text: text.trim() };
}

export function fullImpairment(text: string): Impairment {
  return { ...CLEAN, ...parseImpairment(text) };
}

export function describeImpairment(i: Impairment): string {
  return `loss=${i.lossPct}%,delay=${i.delayMs}ms,jitter=${i.jitterMs}ms`;
}
