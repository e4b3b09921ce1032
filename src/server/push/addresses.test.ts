/** The address rule push messages are sent by (SEC-06): public unicast only. */
import { describe, expect, it } from 'vitest';
import { ipv6Bytes, isLoopbackAddress, isPublicAddress } from './addresses';

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.5', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.254', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback in brackets'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated), even of a public address'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::10.1.2.3', 'NAT64 of 10.1.2.3'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
    ['64:ff9b:1::808:808', 'local-use NAT64 prefix'],
    ['fc00::1', 'ULA'],
    ['fd12:3456:789a::1', 'ULA'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['2002:7f00:1::1', '6to4'],
    ['100::1', 'discard'],
    ['localhost', 'not an address'],
    ['fcm.googleapis.com', 'not an address'],
    ['', 'empty'],
  ])('SEC-06 %s is refused (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8'],
    ['142.250.179.170'],
    ['1.1.1.1'],
    ['100.63.255.255'],
    ['100.128.0.1'],
    ['172.15.255.255'],
    ['172.32.0.1'],
    ['2a00:1450:400e:80f::200a'],
    ['2606:4700::6810:84e5'],
    ['[2a00:1450:400e:80f::200a]'],
    ['64:ff9b::808:808'],
    ['64:ff9b::8.8.4.4'],
  ])('SEC-06 %s is a public address', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('helpers', () => {
  it('SEC-06 IPv6 addresses are read in every notation', () => {
    expect([...ipv6Bytes('::ffff:127.0.0.1')!]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);
    expect([...ipv6Bytes('64:ff9b::7f00:1')!]).toEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0, 0, 1]);
    expect([...ipv6Bytes('2001:db8:0:0:0:0:0:1')!]).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Bytes('127.0.0.1')).toBeNull();
    expect(ipv6Bytes('1::2::3')).toBeNull();
  });

  it('SEC-06 loopback is 127.0.0.0/8 and ::1 only', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('[::1]')).toBe(true);
    expect(isLoopbackAddress('::127.0.0.1')).toBe(false);
    expect(isLoopbackAddress('localhost')).toBe(false);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });
});
