import { contentHash } from './ids';

describe('contentHash', () => {
  it('is the sha256 of the bytes in the provenance form, the same for a string and its UTF-8 bytes', () => {
    const abc = 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(contentHash('abc')).toBe(abc);
    expect(contentHash(new TextEncoder().encode('abc'))).toBe(abc);
    expect(contentHash('é')).toBe(contentHash(Buffer.from('é', 'utf8')));
  });
});
