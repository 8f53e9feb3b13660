import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Readable } from 'node:stream';

// Where the service connects to addresses a customer chose: webhooks (docs/notifications.md,
// "Address policy") and integrations' provider addresses (docs/integrations.md). Never to
// loopback, private, shared, link-local (which holds the cloud metadata address 169.254.169.254),
// multicast or reserved addresses, unless the configuration allows private targets or names the host.
// Translation and tunnel prefixes are refused whole, since they lead to IPv4 addresses of any kind:
// NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4 (2002::/16, whose next 32 bits are
// an IPv4 address, and its relay anycast 192.88.99.0/24); so is the old site-local fec0::/10.

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

export interface AddressPolicy {
  allowPrivate: boolean;
  allowedHosts: ReadonlySet<string>;
}

function policyOf(allowPrivate: boolean, allowedHosts: string): AddressPolicy {
  return {
    allowPrivate,
    allowedHosts: new Set(
      allowedHosts
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  };
}

export function addressPolicyOf(config: {
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_ALLOWED_HOSTS: string;
}): AddressPolicy {
  return policyOf(config.WEBHOOK_ALLOW_PRIVATE, config.WEBHOOK_ALLOWED_HOSTS);
}

// For integrations; without a configuration (a process that has none) nothing private is allowed.
export function integrationAddressPolicyOf(config?: {
  INTEGRATION_ALLOW_PRIVATE: boolean;
  INTEGRATION_ALLOWED_HOSTS: string;
}): AddressPolicy {
  return policyOf(config?.INTEGRATION_ALLOW_PRIVATE ?? false, config?.INTEGRATION_ALLOWED_HOSTS ?? '');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1 or ::ffff:7f00:1) is judged as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[/, '').replace(/\]$/, '').toLowerCase();
}

// What can be told without resolving the name: the scheme, credentials in the URL, a literal
// address or a local name. Used for a channel's readiness; the resolved address is checked again
// at each delivery.
export function staticDestinationProblem(rawUrl: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http and https URLs are delivered to';
  if (url.username || url.password) return 'URLs with credentials are not delivered to';
  const host = hostOf(url);
  if (policy.allowPrivate || policy.allowedHosts.has(host)) return null;
  if (url.protocol !== 'https:') return 'only https URLs are delivered to';
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local'))
    return 'local host names are not delivered to';
  if (isIP(host) && isBlockedAddress(host)) return 'the address is in a range that is not delivered to';
  return null;
}

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

// A DNS lookup for http.request that refuses blocked addresses, so the address checked is the
// address connected to (no second resolution an attacker's DNS could answer differently).
export function guardedLookup(policy: AddressPolicy, host: string) {
  const open = policy.allowPrivate || policy.allowedHosts.has(host.toLowerCase());
  return (
    hostname: string,
    options: object,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as { address: string; family: number }[];
      const refused = !open && list.some((entry) => isBlockedAddress(entry.address));
      if (refused || list.length === 0)
        return callback(new DestinationRefused('the host resolves to an address that is not delivered to'), '', 0);
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export function destinationHost(rawUrl: string): string {
  return hostOf(new URL(rawUrl));
}

// An HTTP(S) client agent whose connections go only where the policy allows (the lookup refuses
// a name that resolves to a blocked address), for libraries that take an agent (the S3 client).
export function agentWithinPolicy(rawUrl: string, policy: AddressPolicy): http.Agent {
  const url = new URL(rawUrl);
  const options = { keepAlive: true, lookup: guardedLookup(policy, hostOf(url)) as never };
  const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  // A literal address is connected to without a lookup: refused here instead.
  const problem = staticDestinationProblem(rawUrl, policy);
  if (problem) {
    (agent as unknown as { createConnection: () => never }).createConnection = () => {
      throw new DestinationRefused(problem);
    };
  }
  return agent;
}

// fetch's answer for one request within the policy: checked before connecting (scheme, literal
// addresses, local names) and again on the address the name resolves to, which is the address
// connected to. Redirects are not followed (a 3xx is answered as is).
export function fetchWithinPolicy(
  url: URL,
  init: { method: string; headers: Record<string, string>; signal?: AbortSignal },
  policy: AddressPolicy,
): Promise<Response> {
  const problem = staticDestinationProblem(url.href, policy);
  if (problem) return Promise.reject(new DestinationRefused(problem));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: init.method,
        headers: init.headers,
        signal: init.signal,
        lookup: guardedLookup(policy, hostOf(url)),
      },
      (response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
            headers.append(name, one);
        }
        const status = response.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) response.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, headers }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}
