import { udpDrops } from '../../../stack/bridge/udp-drops';

// Two sockets as /proc/net/udp lists them: 127.0.0.1:25888 (0x6520) with 17 drops, and 0.0.0.0:68.
const PROC_NET_UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  101: 0100007F:6520 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 123456 2 0000000000000000 17
  202: 00000000:0044 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 654321 2 0000000000000000 0
`;

describe('udpDrops', () => {
  it('reads the drop count of the socket bound to the port', () => {
    expect(udpDrops(PROC_NET_UDP, 25888)).toBe(17);
    expect(udpDrops(PROC_NET_UDP, 68)).toBe(0);
  });

  it('answers null when no socket is bound to the port', () => {
    expect(udpDrops(PROC_NET_UDP, 2000)).toBeNull();
    expect(udpDrops('', 2000)).toBeNull();
  });
});
