import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './private-addresses.ts';

describe('isPrivateAddress', () => {
  it('names loopback, private, link-local, shared, multicast and reserved IPv4 ranges', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1'])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1'])
      expect(isPrivateAddress(address), address).toBe(true);
  });

  it('leaves public IPv4 addresses, including those beside the private ranges', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '1.1.1.1'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('names IPv6 loopback, unique-local, link-local and multicast, a zone included', () => {
    for (const address of ['::1', '::', 'fd00::1', 'fe80::1%eth0', 'ff02::1'])
      expect(isPrivateAddress(address), address).toBe(true);
    expect(isPrivateAddress('2606:4700::1111')).toBe(false);
  });

  it('judges an IPv6 address that carries an IPv4 one by that address', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::127.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::'])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
