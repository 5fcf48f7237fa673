/**
 * The kernel's drop count for a bound UDP socket, from /proc/net/udp. Each line: `sl local_address rem_address st
 * tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ref pointer drops`, addresses as HEXIP:HEXPORT. Pure.
 */
export function udpDrops(procNetUdp: string, port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let total: number | null = null;
  for (const line of procNetUdp.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 13 || fields[1].split(':')[1] !== hexPort) continue;
    total = (total ?? 0) + Number(fields[12]);
  }
  return total;
}
