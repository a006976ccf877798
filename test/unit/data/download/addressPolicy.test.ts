import { describe, expect, it } from 'vitest';
import { privateAddressReason } from '../../../../src/data/download/addressPolicy.js';

describe('privateAddressReason: only public internet addresses pass', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['0.0.0.0', /this network/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local, incl. cloud metadata/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /reserved or broadcast/],
    ['198.18.0.1', /benchmarking/],
    ['192.0.2.1', /documentation/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['fec0::1', /not global unicast/],
    ['::ffff:127.0.0.1', /IPv4-mapped 127.0.0.1: loopback/],
    ['::ffff:7f00:1', /IPv4-mapped 127.0.0.1: loopback/],
    ['::ffff:a9fe:a9fe', /IPv4-mapped 169.254.169.254/],
    ['::ffff:10.0.0.1', /IPv4-mapped 10.0.0.1: private/],
    ['::127.0.0.1', /IPv4-compatible 127.0.0.1/],
    ['64:ff9b::a9fe:a9fe', /NAT64 169.254.169.254/],
    ['64:ff9b::127.0.0.1', /NAT64 127.0.0.1/],
    ['2002:7f00:1::', /6to4 127.0.0.1/],
    ['2002:c0a8:101::1', /6to4 192.168.1.1/],
    ['2001:db8::1', /IETF protocol assignments|documentation/],
    ['2001:0:4136:e378::1', /Teredo/],
    ['[::1]', /loopback/],
    ['localhost', /not an IP address/],
  ];
  for (const [address, why] of refused) {
    it(`refuses ${address}`, () => {
      expect(privateAddressReason(address)).toMatch(why);
    });
  }

  for (const address of [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ]) {
    it(`allows ${address}`, () => {
      expect(privateAddressReason(address)).toBeUndefined();
    });
  }
});
