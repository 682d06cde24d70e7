import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'chai';
import { api, type CallRecord } from '@common/api';
import { createFakeServices, eventually } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import CallHistoryPage from './CallHistoryPage';

const entry = (callId: number, over: Partial<CallRecord> = {}): CallRecord => ({
  callId,
  peerUserId: 2,
  peerName: 'Kim',
  media: 'audio',
  direction: 'outgoing',
  outcome: 'answered',
  startedAt: '2026-11-26T10:00:00.000Z',
  durationSec: 38,
  ...over,
});

describe('통화 기록', () => {
  afterEach(cleanup);

  it('lists the calls newest first with their wording and call-back buttons, counts the missed ones, and loads older ones on 더 보기', async () => {
    const pages: Record<string, { calls: CallRecord[]; hasMore: boolean }> = {
      first: { calls: [entry(9), entry(8, { direction: 'incoming', outcome: 'missed', durationSec: 0, media: 'video', peerName: 'Lee', peerUserId: 3 })], hasMore: true },
      older: { calls: [entry(5, { direction: 'incoming', outcome: 'cancelled', durationSec: 0 })], hasMore: false },
    };
    const services = createFakeServices({ [`GET ${api.calls}`]: (request) => (request.query?.before === 8 ? pages.older : pages.first) }, 1);
    renderApp(services, [{ path: '/calls', element: <CallHistoryPage /> }], '/calls');
    await eventually(() => screen.queryAllByTestId('call-history-entry').length === 2, 'the first page');
    const rows = screen.getAllByTestId('call-history-entry');
    expect(rows[0].textContent).to.contain('발신 음성통화 00:38');
    expect(rows[1].textContent).to.contain('부재중 전화 · 영상통화');
    expect(screen.getByTestId('missed-count').textContent).to.equal('부재중 전화 1건');
    expect(services.requests[0].query).to.deep.equal({ limit: 30 });

    fireEvent.click(screen.getByRole('button', { name: '더 보기' }));
    await eventually(() => screen.queryAllByTestId('call-history-entry').length === 3, 'the older page');
    expect(services.requests[1].query).to.deep.equal({ limit: 30, before: 8 });
    expect(screen.getByTestId('missed-count').textContent).to.equal('부재중 전화 2건');
    expect(screen.queryByRole('button', { name: '더 보기' })).to.equal(null);

    expect(within(rows[1]).getByRole('button', { name: '음성통화' })).to.not.equal(null);
    expect(within(rows[1]).getByRole('button', { name: '영상통화' })).to.not.equal(null);
  });

  it('says 통화 기록을 불러오지 못했습니다. when the request fails, and 통화 기록이 없습니다. when there are none', async () => {
    const failing = createFakeServices({ [`GET ${api.calls}`]: () => Promise.reject(new Error('boom')) }, 1);
    renderApp(failing, [{ path: '/calls', element: <CallHistoryPage /> }], '/calls');
    await screen.findByText('통화 기록을 불러오지 못했습니다.');
    cleanup();
    const empty = createFakeServices({ [`GET ${api.calls}`]: () => ({ calls: [], hasMore: false }) }, 1);
    renderApp(empty, [{ path: '/calls', element: <CallHistoryPage /> }], '/calls');
    await screen.findByText('통화 기록이 없습니다.');
  });
});
