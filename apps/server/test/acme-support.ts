// A real ACME CA for the tests: Debian's Pebble, with a TLS certificate of its own made by openssl, and a
// small DNS server (UDP, by hand) that resolves the test domains as each test says. Pebble's HTTP-01
// validation reaches the tracker's HTTP port through that DNS: nothing is switched to "always valid".
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const PEBBLE_BINARY = process.env.PEBBLE_PATH ?? '/usr/bin/pebble';
export const PEBBLE_MISSING = existsSync(PEBBLE_BINARY)
  ? null
  : `Pebble not found at ${PEBBLE_BINARY} (apt-get install -y pebble, or set PEBBLE_PATH)`;

/** A DNS server answering A queries from a table the test changes; other names are NXDOMAIN. */
export class TestDns {
  readonly records = new Map<string, string[]>();
  private constructor(
    private readonly socket: dgram.Socket,
    readonly port: number,
  ) {}

  static async start(): Promise<TestDns> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const dns = new TestDns(socket, (socket.address() as AddressInfo).port);
    socket.on('message', (message, peer) => {
      const reply = dns.answer(message);
      if (reply) socket.send(reply, peer.port, peer.address);
    });
    return dns;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private answer(query: Buffer): Buffer | null {
    if (query.length < 17) return null;
    let offset = 12;
    const labels: string[] = [];
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += length + 1;
    }
    const questionEnd = offset + 5;
    if (questionEnd > query.length) return null;
    const type = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    const known = this.records.get(name);
    const addresses = type === 1 ? (known ?? []) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // QR, the query's RD, RA; NXDOMAIN for names not in the table.
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0);
      record.writeUInt16BE(1, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(5, 6);
      record.writeUInt16BE(4, 10);
      for (const [index, part] of address.split('.').entries()) record.writeUInt8(Number(part), 12 + index);
      return record;
    });
    return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Pebble {
  directory: string;
  /** The PEM of the CA that signed Pebble's own HTTPS certificate, for SWITCHYARD_ACME_CA_FILE. */
  caFile: string;
  stop(): Promise<void>;
}

/** Pebble validating HTTP-01 on `httpPort` of whatever `dns` resolves each name to. */
export async function startPebble(options: { httpPort: number; dns: TestDns }): Promise<Pebble> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-pebble-'));
  const caKey = path.join(dir, 'ca.key');
  const caFile = path.join(dir, 'ca.pem');
  const key = path.join(dir, 'pebble.key');
  const csr = path.join(dir, 'pebble.csr');
  const cert = path.join(dir, 'pebble.pem');
  const ext = path.join(dir, 'ext.cnf');
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    caKey,
    '-out',
    caFile,
    '-days',
    '2',
    '-subj',
    '/CN=Switchyard test CA for Pebble',
  ]);
  openssl([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    csr,
    '-subj',
    '/CN=localhost',
  ]);
  await writeFile(ext, 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    caFile,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '2',
    '-extfile',
    ext,
  ]);
  const [listen, management] = [await freePort(), await freePort()];
  const config = path.join(dir, 'pebble-config.json');
  await writeFile(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: cert,
        privateKey: key,
        httpPort: options.httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn(PEBBLE_BINARY, ['-config', config, '-dnsserver', options.dns.address], {
    // No sleeps before validation, no rejected nonces, every order validated afresh.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Pebble did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Pebble exited (${code}):\n${output}`));
    });
  });
  return {
    directory: `https://127.0.0.1:${listen}/dir`,
    caFile,
    async stop() {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
