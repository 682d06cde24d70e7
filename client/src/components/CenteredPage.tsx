import type { ReactNode } from 'react';
import { useDocumentTitle } from './documentTitle';
import { Footer } from './Footer';

/** A single card centred on the screen: the shape of the login, sign-up and settings pages; `title` names the browser tab. */
export function CenteredPage({ title, children, footer = true }: { title: string | null; children: ReactNode; footer?: boolean }) {
  useDocumentTitle(title);
  return (
    <main className="centered">
      <section className="card">{children}</section>
      {footer && <Footer />}
    </main>
  );
}
