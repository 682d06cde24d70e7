// The parts of http_ece (no published types) the push tests use to decrypt what the server sends.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  interface DecryptParams {
    version: 'aes128gcm';
    privateKey: ECDH;
    authSecret: string;
  }
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
