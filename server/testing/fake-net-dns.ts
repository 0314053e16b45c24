/**
 * A real DNS server (dns2, UDP on 127.0.0.1, random port) answering from ZONE.
 * Every question is logged so tests can count lookups.
 */
import {
  createTCPServer,
  createUDPServer,
  type DnsHandler,
  Packet,
  type Question,
  type Resource,
} from 'dns2';
import { ZONE, type ZoneEntry } from './fake-net-zone';

export interface DnsQuery {
  /** Lowercased name without a trailing dot. */
  name: string;
  /** 'A', 'AAAA', 'MX', 'TXT', ... or the numeric type. */
  type: string;
}

export interface FakeDns {
  address: string;
  queries: DnsQuery[];
  stop(): Promise<void>;
}

const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;
const TTL = 60;

const typeNames = new Map<number, string>(
  Object.entries(Packet.TYPE).map(([name, code]) => [code as number, name]),
);

function answersFor(entry: ZoneEntry, question: Question): Resource[] {
  const base = { name: question.name, class: Packet.CLASS.IN, ttl: TTL };
  switch (question.type) {
    case Packet.TYPE.MX:
      return (entry.mx ?? []).map((mx) =>
        Packet.createResourceFromQuestion(question, { ...base, type: Packet.TYPE.MX, ...mx }),
      );
    case Packet.TYPE.A:
      return (entry.a ?? []).map((address) =>
        Packet.createResourceFromQuestion(question, { ...base, type: Packet.TYPE.A, address }),
      );
    case Packet.TYPE.TXT:
      return (entry.txt ?? []).map((data) =>
        Packet.createResourceFromQuestion(question, { ...base, type: Packet.TYPE.TXT, data }),
      );
    default:
      return [];
  }
}

/**
 * `zone` defaults to the fake network's; `{}` makes a resolver that answers NXDOMAIN for every name.
 * `tcp`: also answers over TCP on the same port (for answers too big for UDP, e.g. 50 MX records).
 */
export async function startFakeDns(
  zone: Record<string, ZoneEntry> = ZONE,
  options: { tcp?: boolean } = {},
): Promise<FakeDns> {
  const queries: DnsQuery[] = [];
  const answer: DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    queries.push({ name, type: typeNames.get(question.type) ?? String(question.type) });
    const entry = zone[name];
    if (entry?.rcode === 'silent') return;
    if (!entry) response.header.rcode = RCODE_NXDOMAIN;
    else if (entry.rcode === 'servfail') response.header.rcode = RCODE_SERVFAIL;
    else response.answers.push(...answersFor(entry, question));
    void send(response);
  };
  const server = createUDPServer(answer);
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  const tcp = options.tcp ? createTCPServer(answer) : null;
  if (tcp) await new Promise<void>((resolve) => tcp.listen(port, '127.0.0.1', () => resolve()));
  return {
    address: `127.0.0.1:${port}`,
    queries,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (tcp) await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
