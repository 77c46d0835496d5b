import { assertPublicUrl, isNonPublicAddress, NonPublicAddressError } from './public-address';

describe('isNonPublicAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', 'ff02::1', '::127.0.0.1', '::8.8.8.8', '::a00:1', '2002:7f00:1::1', '2002:c0a8:101::', '2001::1', '2001:0:4136:e378::1', '100::1', '64:ff9b::a00:1', '64:ff9b:1::1'])(
    '%s is not public',
    (address) => expect(isNonPublicAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:82b::200e', '2002:808:808::1', '2001:4860:4860::8888', '2001:200::1', '100:0:0:1::1'])('%s is public', (address) =>
    expect(isNonPublicAddress(address)).toBe(false),
  );
});

describe('assertPublicUrl', () => {
  it('refuses IP literals and names that resolve to non-public addresses, unless allowed', async () => {
    await expect(assertPublicUrl('http://169.254.169.254/latest/meta-data/x.pdf', { allowPrivate: false })).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(assertPublicUrl('http://[::1]:9092/a.pdf', { allowPrivate: false })).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(assertPublicUrl('http://localhost:8089/a.pdf', { allowPrivate: false })).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(assertPublicUrl('http://127.0.0.1:8089/a.pdf', { allowPrivate: true })).resolves.toBeUndefined();
    await expect(assertPublicUrl('https://8.8.8.8/a.pdf', { allowPrivate: false })).resolves.toBeUndefined();
  });
});
