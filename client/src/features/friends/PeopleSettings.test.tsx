import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'chai';
import { api, type BlockedUser } from '@common/api';
import { createFakeServices, eventually, httpError } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import { PeopleSettings, photoProblem } from './PeopleSettings';

const ME = { userId: 1, name: '홍길동', photoVersion: 'v1', statusMessage: null };

function renderSettings(blocks: BlockedUser[], status: (body: unknown) => unknown = (body) => body) {
  let blocked = [...blocks];
  const services = createFakeServices(
    {
      [`GET ${api.userProfile}`]: () => ME,
      [`GET ${api.friends}`]: () => [],
      [`GET ${api.blocks}`]: () => blocked,
      [`PUT ${api.userStatus}`]: (request) => status(request.body),
      [`DELETE ${api.userPhoto}`]: () => ({ photoVersion: null }),
    },
    1,
  );
  for (const person of blocks) {
    services.route(`DELETE ${api.block(person.userId)}`, () => {
      blocked = blocked.filter((b) => b.userId !== person.userId);
      return blocked;
    });
  }
  renderApp(services, [{ path: '/user-settings', element: <PeopleSettings /> }], '/user-settings');
  return services;
}

describe('the settings’ photo, status message and 차단 관리', () => {
  afterEach(cleanup);

  it('lists the people blocked, each with 차단 해제, and says 차단한 사람이 없습니다. once none is left', async () => {
    const services = renderSettings([{ userId: 5, name: '최악당', photoVersion: 'p5' }]);
    const section = await screen.findByRole('region', { name: '차단 관리' });
    await eventually(() => within(section).queryAllByTestId('blocked-row').length === 1, 'the blocked person');
    const row = within(section).getByTestId('blocked-row');
    expect(row.querySelector('img')?.getAttribute('src')).to.equal(`${api.photoOf(5)}?size=small&v=p5`);
    fireEvent.click(within(row).getByRole('button', { name: '차단 해제' }));
    await within(section).findByText('차단한 사람이 없습니다.');
    expect(services.requests.filter((r) => r.method === 'DELETE' && r.path === api.block(5))).to.have.length(1);
  });

  it('saves the status message (at most 60 characters) and says so; a refusal is said', async () => {
    let refuse = false;
    const services = renderSettings([], (body) => {
      if (refuse) throw httpError(400);
      return body;
    });
    const field = (await screen.findByLabelText('상태 메시지')) as HTMLInputElement;
    await eventually(() => !field.disabled, 'the profile loaded');
    expect(field.maxLength).to.equal(60);
    fireEvent.change(field, { target: { value: '  휴가 중  ' } });
    fireEvent.click(screen.getByRole('button', { name: '저장' }));
    await eventually(() => screen.getByTestId('status-message-status').textContent === '상태 메시지를 저장했습니다.', 'saved');
    expect(services.requests.find((r) => r.method === 'PUT')?.body).to.deep.equal({ statusMessage: '휴가 중' });

    refuse = true;
    fireEvent.change(field, { target: { value: '다른 상태' } });
    fireEvent.click(screen.getByRole('button', { name: '저장' }));
    await eventually(() => screen.getByTestId('status-message-status').textContent === '상태 메시지를 저장하지 못했습니다. 잠시 후 다시 시도해주세요.', 'refused');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
  });

  it('shows my photo with 프로필 사진 변경 and 프로필 사진 삭제; deleting leaves the initial', async () => {
    const services = renderSettings([]);
    const section = await screen.findByRole('region', { name: '프로필' });
    await eventually(() => section.querySelector('img') !== null, 'the photo');
    expect(section.querySelector('img')?.getAttribute('src')).to.equal(`${api.photoOf(1)}?size=large&v=v1`);
    expect((within(section).getByTestId('photo-input') as HTMLInputElement).accept).to.equal('image/jpeg,image/png,image/webp');
    fireEvent.click(within(section).getByRole('button', { name: '프로필 사진 삭제' }));
    await eventually(() => section.querySelector('img') === null, 'the photo gone');
    expect(services.requests.filter((r) => r.method === 'DELETE' && r.path === api.userPhoto)).to.have.length(1);
    expect(within(section).queryByRole('button', { name: '프로필 사진 삭제' })).to.equal(null);
    expect(within(section).getByRole('button', { name: '프로필 사진 변경' })).to.not.equal(null);
  });

  it('refuses a photo that is not JPEG, PNG or WebP, or is over 10 MiB, before uploading', () => {
    expect(photoProblem({ type: 'image/gif', size: 10 })).to.equal('JPEG, PNG, WebP 사진만 올릴 수 있습니다.');
    expect(photoProblem({ type: 'image/png', size: 10 * 1024 * 1024 + 1 })).to.equal('10MB 이하의 사진만 올릴 수 있습니다.');
    expect(photoProblem({ type: 'image/webp', size: 10 * 1024 * 1024 })).to.equal(null);
  });

  it('says why a chosen file is refused, without uploading it', async () => {
    const services = renderSettings([]);
    const section = await screen.findByRole('region', { name: '프로필' });
    await eventually(() => section.querySelector('img') !== null, 'the profile');
    const gif = new File(['GIF89a'], 'a.gif', { type: 'image/gif' });
    fireEvent.change(within(section).getByTestId('photo-input'), { target: { files: [gif] } });
    await eventually(() => screen.getByTestId('photo-status').textContent === 'JPEG, PNG, WebP 사진만 올릴 수 있습니다.', 'the refusal');
    expect(services.requests.filter((r) => r.path === api.userPhoto)).to.have.length(0);
  });
});
