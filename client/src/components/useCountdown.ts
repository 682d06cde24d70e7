// Whole seconds left until `until` (epoch ms), ticking each second while any are left.
import { useEffect, useState } from 'react';

export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [left > 0]);
  // A new deadline (another send) restarts the clock from now.
  useEffect(() => setNow(Date.now()), [until]);
  return left;
}
