import type { ReactNode } from 'react';
import { Footer } from './Footer';

/** A single card centred on the screen: the shape of the login, sign-up and settings pages. */
export function CenteredPage({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  return (
    <main className="centered">
      <section className="card">{children}</section>
      {footer && <Footer />}
    </main>
  );
}
