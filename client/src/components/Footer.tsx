import { ko } from '../i18n/ko';

/** Built from the project's README at build time (webpack.config.ts). */
export const WRITE_UP_PATH = '/write-up.txt';

export function Footer() {
  return (
    <footer className="footer">
      <p>{ko.app.footerCredit}</p>
      <p>
        <a href={WRITE_UP_PATH} target="_blank" rel="noreferrer">
          {ko.app.footerWriteUp}
        </a>
      </p>
    </footer>
  );
}
