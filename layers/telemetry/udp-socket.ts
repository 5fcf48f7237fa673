/**
 * The UDP socket X-Ray segments and EMF documents leave by. An unbound dgram socket binds to 0.0.0.0 on its first
 * send, i.e. it listens on every interface for as long as the process lives. When the receiver is on loopback
 * (offline, the local stack) the socket binds to 127.0.0.1 instead; in AWS the X-Ray daemon sits on a link-local
 * address (169.254.79.129), which a loopback-bound socket could not reach, so it keeps the default.
 */
import { createSocket, type Socket } from 'node:dgram';

export function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Sends made before the bind completes are queued by dgram, not lost. */
export function senderSocket(host: string): Socket {
  const socket = createSocket('udp4').unref();
  if (isLoopback(host)) socket.bind({ address: '127.0.0.1', port: 0 });
  return socket;
}
