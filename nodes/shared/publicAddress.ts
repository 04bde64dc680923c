/**
 * Why a URL's host is not a public address, or undefined when it may be one. The spec: "only
 * public http or https addresses are accepted". Only what the URL itself shows is judged: names
 * that always mean this machine, its network or a cloud's metadata service, and literal IPs, in
 * whatever notation the URL parser normalises (`127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`,
 * NAT64, 6to4, Teredo and ISATAP forms), and names of wildcard-DNS services that answer the
 * address written in the name (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`) or always this machine
 * (`localtest.me`, `*.localhost.direct`), or either of two (`7f000001.c0a80001.rbndr.us`), and
 * names without a domain (`redis`). Other host names are left to the service, which resolves them.
 */
export function notPublicReason(url: URL): string | undefined {
	const host = url.hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return 'this machine (localhost)';
	const under = (names: string[]) =>
		names.some((name) => host === name || host.endsWith(`.${name}`));
	if (LOCAL_NAMES.includes(host) || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix)))
		return `a name for this machine, its network or its cloud's metadata (${host})`;
	if (under(CLUSTER_NAMES)) return `a name inside a cluster's own network (${host})`;
	if (under(LOOPBACK_SERVICES)) return `a name that always means this machine (${host})`;
	const wildcard = WILDCARD_SERVICES.find((name) => host.endsWith(`.${name}`));
	if (wildcard) {
		const reason = embeddedAddressReason(host.slice(0, -wildcard.length - 1));
		if (reason) return `${reason}, written in a name that answers it (${host})`;
	}
	if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Reason(host.split('.').map(Number));
	if (host.startsWith('[') && host.endsWith(']')) return ipv6Reason(host.slice(1, -1));
	// A name without a domain (`redis`, `minio`) is one only a local network's resolver answers.
	if (!host.includes('.'))
		return `a name without a domain, which only a local network answers (${host})`;
	return undefined;
}

/**
 * The cloud's metadata service (169.254.169.254, fe80::, its names): no file lives there, and it
 * hands out the machine's own credentials. Never fetched, whatever the instance's address.
 */
const NEVER_A_FILE = /link-local|metadata/;

/**
 * Why the node does not fetch a file at `file` for an instance at `instance`, or undefined when it
 * may. A file on the instance's own origin is always fetched. Elsewhere, a file at a non-public
 * address is fetched only for an instance that is itself at one (a self-hosted setup whose
 * storage lives on its own network, `http://10.0.0.5` beside `http://10.0.0.9:9000`); for a
 * public instance it is refused (a public service, or a CDN's redirect, pointing n8n into its own
 * network). The metadata service never. Names are judged as written, not resolved: n8n's own
 * SSRF protection (N8N_SSRF_PROTECTION_ENABLED) resolves them, when it is on.
 */
export function fileAddressRefusal(file: URL, instance: URL): string | undefined {
	if (file.origin === instance.origin) return undefined;
	const reason = notPublicReason(file);
	if (!reason) return undefined;
	if (NEVER_A_FILE.test(reason) || !notPublicReason(instance)) return reason;
	return undefined;
}

/** A file the node does not fetch, for where it is (see fileAddressRefusal); nothing was sent there. */
export class FileAddressRefused extends Error {
	readonly description: string;

	constructor(file: URL, reason: string) {
		super(`the file at ${file.origin} is on ${reason}: the node does not fetch files there`);
		this.name = 'FileAddressRefused';
		this.description = `The service pointed to ${file.origin}${file.pathname}, or a redirect did. For an instance on a public address the node fetches files only from public ones, and never from the cloud's metadata service. If your files live on your own network, the instance must be on it too; or download them with the HTTP Request node.`;
	}
}

/** Names that always mean this machine, the local network or a cloud's metadata service. */
const LOCAL_NAMES = [
	'localhost.localdomain',
	'ip6-localhost',
	'ip6-loopback',
	'metadata',
	'metadata.google.internal',
	'metadata.tencentyun.com',
	'instance-data',
];
/** Suffixes of names only a local network answers (the last four: undelegated, used in-house). */
const LOCAL_SUFFIXES = [
	'.localdomain',
	'.internal',
	'.local',
	'.home.arpa',
	'.lan',
	'.corp',
	'.intranet',
	'.private',
];
/** Names a cluster (Kubernetes) answers inside its own network. */
const CLUSTER_NAMES = ['kubernetes', 'kubernetes.default', 'svc', 'cluster.local'];
/** Public names that always answer 127.0.0.1 (for any name under them too). */
const LOOPBACK_SERVICES = [
	'localtest.me',
	'lvh.me',
	'vcap.me',
	'localho.st',
	'lacolhost.com',
	'localhost.direct',
];
/** Wildcard-DNS services that answer the address written in the name. */
const WILDCARD_SERVICES = ['nip.io', 'sslip.io', 'xip.io', 'traefik.me', 'nip.direct', 'rbndr.us'];

/**
 * The address a wildcard-DNS name carries (`a.127.0.0.1`, `app-10-0-0-1`, `7f000001`), judged as
 * that address; undefined when it carries none, or a public one.
 */
function embeddedAddressReason(labels: string): string | undefined {
	// rbndr.us answers either of two hex addresses (`7f000001.c0a80001`), in turn: both are judged.
	const pair = /(?:^|\.)([0-9a-f]{8})\.([0-9a-f]{8})$/.exec(labels);
	if (pair) return embeddedAddressReason(pair[1]) ?? embeddedAddressReason(pair[2]);
	// sslip.io writes IPv6 with dashes for colons: `--1` is ::1, `fe80--1` is fe80::1.
	const dashed = /(?:^|\.)([0-9a-f-]*--[0-9a-f-]*)$/.exec(labels);
	if (dashed) return ipv6Reason(dashed[1].replace(/-/g, ':'));
	const dotted = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})$/.exec(labels);
	const hex = /(?:^|[.-])([0-9a-f]{8})$/.exec(labels);
	const octets = dotted
		? dotted.slice(1, 5).map(Number)
		: hex
			? octetsOf(parseInt(hex[1].slice(0, 4), 16), parseInt(hex[1].slice(4), 16))
			: undefined;
	if (!octets || octets.some((octet) => octet > 255)) return undefined;
	return ipv4Reason(octets);
}

/** Ranges that are not public: network address, prefix length, what it is. */
const IPV4_RANGES: Array<[address: number[], bits: number, kind: string]> = [
	[[0, 0, 0, 0], 8, 'unspecified'],
	[[10, 0, 0, 0], 8, 'private'],
	[[100, 64, 0, 0], 10, 'shared (CGNAT)'],
	[[127, 0, 0, 0], 8, 'loopback'],
	[[169, 254, 0, 0], 16, 'link-local'],
	[[172, 16, 0, 0], 12, 'private'],
	[[192, 0, 0, 0], 24, 'reserved (IETF protocol)'],
	[[192, 0, 2, 0], 24, 'documentation'],
	[[192, 168, 0, 0], 16, 'private'],
	[[198, 18, 0, 0], 15, 'benchmarking'],
	[[198, 51, 100, 0], 24, 'documentation'],
	[[203, 0, 113, 0], 24, 'documentation'],
	[[224, 0, 0, 0], 4, 'multicast'],
	[[240, 0, 0, 0], 4, 'reserved'],
];

function ipv4Reason(octets: number[]): string | undefined {
	const value = toNumber(octets);
	for (const [address, bits, kind] of IPV4_RANGES) {
		const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
		if ((value & mask) >>> 0 === (toNumber(address) & mask) >>> 0)
			return `a ${kind} address (${octets.join('.')})`;
	}
	return undefined;
}

function toNumber(octets: number[]): number {
	return octets.reduce((sum, octet) => sum * 256 + octet, 0) >>> 0;
}

function ipv6Reason(text: string): string | undefined {
	const groups = ipv6Groups(text);
	if (!groups) return undefined;
	const shown = `[${text}]`;
	if (groups.every((group) => group === 0)) return `the unspecified address ${shown}`;
	if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1)
		return `a loopback address ${shown}`;
	if ((groups[0] & 0xffc0) === 0xfe80) return `a link-local address ${shown}`;
	if ((groups[0] & 0xffc0) === 0xfec0) return `a site-local address ${shown}`;
	if ((groups[0] & 0xfe00) === 0xfc00) return `a private (unique local) address ${shown}`;
	if ((groups[0] & 0xff00) === 0xff00) return `a multicast address ${shown}`;
	// Forms that carry an IPv4 address, judged as that address: IPv4-mapped (::ffff:a.b.c.d), the
	// older IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d)
	// in the last 32 bits; 6to4 (2002:aabb:ccdd::) in the 32 after its prefix.
	const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
	const last = octetsOf(groups[6], groups[7]);
	if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return ipv4Reason(last);
	if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Reason(last);
	if (groups[0] === 0x64 && groups[1] === 0xff9b) return ipv4Reason(last);
	if (groups[0] === 0x2002) return ipv4Reason(octetsOf(groups[1], groups[2]));
	// Teredo (2001:0::/32): the client's address, inverted, in the last 32 bits.
	if (groups[0] === 0x2001 && groups[1] === 0)
		return ipv4Reason(octetsOf(groups[6] ^ 0xffff, groups[7] ^ 0xffff));
	// ISATAP: an interface id of ::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d under any prefix.
	if ((groups[4] === 0 || groups[4] === 0x200) && groups[5] === 0x5efe) return ipv4Reason(last);
	return undefined;
}

function octetsOf(high: number, low: number): number[] {
	return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

/** Eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` allowed). */
function ipv6Groups(text: string): number[] | undefined {
	const [head, tail, extra] = text.split('::');
	if (extra !== undefined) return undefined;
	const parse = (part: string | undefined) =>
		part ? part.split(':').map((group) => parseInt(group, 16)) : [];
	const start = parse(head);
	const end = parse(tail);
	const groups =
		tail === undefined
			? start
			: [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
	return groups.length === 8 &&
		groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
		? groups
		: undefined;
}
