import { expect } from 'chai';
import { UploadRefused } from '../../services/upload';
import { uploadRefusal } from './uploadRefusal';

describe('a refused upload, as the user reads it', () => {
  it('tells a file too large, the unsent quota, the day\'s quota and other failures apart', () => {
    expect(uploadRefusal(new UploadRefused(413, 'payload_too_large'))).to.equal('25MB 이하의 파일만 보낼 수 있습니다.');
    expect(uploadRefusal(new UploadRefused(413, 'quota_exceeded'))).to.equal('아직 보내지 않은 파일이 너무 많습니다. 올린 파일을 먼저 보내주세요.');
    expect(uploadRefusal(new UploadRefused(429, 'too_many_requests'))).to.equal('오늘 올릴 수 있는 파일 용량을 모두 사용했습니다. 내일 다시 시도해주세요.');
    expect(uploadRefusal(new UploadRefused(0))).to.equal('파일을 보내지 못했습니다. 다시 시도해주세요.');
    expect(uploadRefusal(new Error('boom'))).to.equal('파일을 보내지 못했습니다. 다시 시도해주세요.');
  });
});
