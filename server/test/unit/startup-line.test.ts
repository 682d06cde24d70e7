import { expect } from 'chai';
import { loadConfig } from '../../src/config';
import { startupLine } from '../../src/process-entry';

describe('the start-up line', () => {
  it('says where to open the app and where data and mail go, with no password', () => {
    expect(startupLine(loadConfig({ PORT: '8080' }))).to.equal("Let's Chat on http://localhost:8080 — SQLite var/letschat.sqlite3, mail in var/mail/");
    const production = loadConfig({ PORT: '8080', DATABASE_URL: 'mysql://chat:secret@db.internal:3306/letschat', SMTP_URL: 'smtp://mail.internal:25' });
    expect(startupLine(production)).to.equal("Let's Chat on http://localhost:8080 — MySQL db.internal:3306/letschat, mail via mail.internal:25");
  });
});
