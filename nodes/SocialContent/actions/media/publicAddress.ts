/**
 * Why a URL's host is not a public address, or undefined when it may be one. The spec: "only
 * public http or https addresses are accepted". Only what the URL itself shows is judged: the
 * name `localhost` and literal IPs, in whatever notation the URL parser normalises (`127.1`,
 * `0x7f000001`, `[::ffff:127.0.0.1]`). Other host names are left to the service, which resolves them.
 */
export function notPublicReason(url: URL): string | undefined {
	const host = url.hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return 'this machine (localhost)';
	if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Reason(host.split('.').map(Number));
	if (host.startsWith('[') && host.endsWith(']')) return ipv6Reason(host.slice(1, -1));
	return undefined;
}

/** Ranges that are not public: network address, prefix length, what it is. */
const IPV4_RANGES: Array<[address: number[], bits: number, kind: string]> = [
	[[0, 0, 0, 0], 8, 'unspecified'],
	[[10, 0, 0, 0], 8, 'private'],
	[[100, 64, 0, 0], 10, 'shared (CGNAT)'],
	[[127, 0, 0, 0], 8, 'loopback'],
	[[169, 254, 0, 0], 16, 'link-local'],
	[[172, 16, 0, 0], 12, 'private'],
	[[192, 168, 0, 0], 16, 'private'],
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
	if ((groups[0] & 0xfe00) === 0xfc00) return `a private (unique local) address ${shown}`;
	// IPv4-mapped (::ffff:a.b.c.d) and the older IPv4-compatible (::a.b.c.d) forms carry an IPv4 address.
	const mapped =
		groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0);
	if (mapped)
		return ipv4Reason([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
	return undefined;
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
