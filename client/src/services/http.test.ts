import { expect } from 'chai';
import { createHttpClient, HttpError, NetworkError } from './http';

function fakeFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    return respond(String(input), init ?? {});
  }) as typeof fetch;
  return { impl, calls };
}

describe('the HTTP client', () => {
  it('sends JSON with same-origin cookies and returns the parsed answer', async () => {
    const { impl, calls } = fakeFetch(() => new Response(JSON.stringify({ name: 'x', userId: 1 }), { status: 200 }));
    const answer = await createHttpClient(impl).post<{ name: string }>('/api/user/login', { email: 'a', password: 'b' });
    expect(answer).to.deep.equal({ name: 'x', userId: 1 });
    expect(calls[0].init.method).to.equal('POST');
    expect(calls[0].init.credentials).to.equal('same-origin');
    expect(calls[0].init.body).to.equal('{"email":"a","password":"b"}');
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).to.equal('application/json');
  });

  it('PUTs with a JSON body, or with none (a block)', async () => {
    const { impl, calls } = fakeFetch(() => new Response('[]', { status: 200 }));
    const client = createHttpClient(impl);
    expect(await client.put('/api/friends/7', { favourite: true })).to.deep.equal([]);
    await client.put('/api/blocks/7');
    expect(calls.map((c) => [c.init.method, c.url, c.init.body])).to.deep.equal([
      ['PUT', '/api/friends/7', '{"favourite":true}'],
      ['PUT', '/api/blocks/7', undefined],
    ]);
  });

  it('puts query values in the address and sends no body on GET', async () => {
    const { impl, calls } = fakeFetch(() => new Response('[]', { status: 200 }));
    await createHttpClient(impl).get('/api/user/search', { keyword: '홍 길', skip: undefined });
    expect(calls[0].url).to.equal('/api/user/search?keyword=%ED%99%8D+%EA%B8%B8');
    expect(calls[0].init.body).to.equal(undefined);
  });

  it('throws an HttpError carrying the status, the error body and Retry-After', async () => {
    const { impl } = fakeFetch(
      () => new Response(JSON.stringify({ error: 'too_many', message: 'slow down' }), { status: 429, headers: { 'Retry-After': '300' } }),
    );
    const error = await createHttpClient(impl).post('/api/email/verification/send', {}).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HttpError);
    expect(error).to.include({ status: 429, retryAfterSeconds: 300 });
    expect((error as HttpError).body?.message).to.equal('slow down');
  });

  it('throws a NetworkError when no answer comes', async () => {
    const { impl } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await createHttpClient(impl).get('/api/user/id').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(NetworkError);
  });

  it('answers undefined for an empty successful body', async () => {
    const { impl } = fakeFetch(() => new Response(null, { status: 204 }));
    expect(await createHttpClient(impl).post('/api/user/logout')).to.equal(undefined);
  });
});
