/**
 * Fields that hold a secret of someone's, wherever they sit in a service answer: a channel's
 * OAuth tokens (the real backend's Disconnect answers the whole channel record, `token` and
 * `refreshToken` included), passwords, keys, sessions, and `customInstanceDetails` (the real
 * backend keeps a self-hosted network's login in it, and strips it from its own post lists for
 * that reason). A name is read by its parts (`aws_secret_access_key`, `privateKeyPem`,
 * `Client-Secret`, `apiKeys`): any part that names a secret makes it one, singular or plural,
 * unless another part says the field only describes one (`tokenExpiration`, `passwordHint`,
 * `maxTokens`, `nextPageToken`). A key is a secret unless it is one that names or finds a thing
 * (`key`, `publicKey`, `keyId`, `objectKey`). A number under a token's name is a count.
 */
const SECRET_FIELDS = new Set(['custominstancedetails', 'setcookie', 'apikey', 'privatekey']);
const SECRET_WORDS = new Set([
	'secret',
	'token',
	'password',
	'passwd',
	'passphrase',
	'session',
	'sid',
	'auth',
	'authorization',
	'bearer',
	'credential',
	'pin',
	'cookie',
	'jwt',
	'apikey',
]);
/** Parts that make a field a description of a secret, not the secret. */
const DESCRIBING = new Set([
	'hint',
	'expiration',
	'expires',
	'expiry',
	'expire',
	'ttl',
	'type',
	'count',
	'max',
	'min',
	'limit',
	'used',
	'total',
	'length',
	'page',
	'next',
	'continuation',
	'cursor',
	'url',
	'uri',
	'endpoint',
	'required',
	'enabled',
]);
/** Parts beside `key` that make it a name or an address, not a secret. */
const NAMING_KEY = new Set([
	'public',
	'id',
	'name',
	'idempotency',
	'sort',
	'cache',
	'partition',
	'primary',
	'foreign',
	'object',
	'storage',
	'file',
	'media',
	's3',
]);

/** The parts of a name, lower case, plural `s` dropped: `aws_secret_access_key` → aws, secret, access, key. */
function partsOf(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean)
		.map((part) => (part.length > 3 && part.endsWith('s') ? part.slice(0, -1) : part));
}

export function isSecretField(name: string, value?: unknown): boolean {
	let verdict = verdicts.get(name);
	if (verdict === undefined) {
		verdict = judgeName(name);
		// Names repeat across the entries of a list: judged once (a bounded cache).
		if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
		verdicts.set(name, verdict);
	}
	return verdict === 'token' ? typeof value !== 'number' : verdict === 'secret';
}

type Verdict = 'secret' | 'token' | 'not';
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 10_000;

function judgeName(name: string): Verdict {
	if (SECRET_FIELDS.has(name.toLowerCase().replace(/[_-]/g, ''))) return 'secret';
	const parts = partsOf(name);
	if (parts.some((part) => DESCRIBING.has(part))) return 'not';
	if (parts.some((part) => SECRET_WORDS.has(part)))
		return parts.includes('token') ? 'token' : 'secret';
	const key = parts.indexOf('key');
	return key >= 0 && parts.length > 1 && !parts.some((part) => NAMING_KEY.has(part))
		? 'secret'
		: 'not';
}

/** Most levels of lists and records an answer may nest: deeper ones are refused, never shown. */
export const MAX_ANSWER_DEPTH = 200;

/**
 * An answer the stripping could not read: nothing of it may be shown, since no one knows what
 * secrets it holds. `reason` is the node's own words, never a part of the answer.
 */
export class UnreadableAnswer extends Error {
	constructor(readonly reason: string) {
		super(reason);
		this.name = 'UnreadableAnswer';
	}
}

/**
 * A service answer without its secret fields, at any depth. Every answer passes here before it
 * becomes an item or an error (transport: parseAnswer), so no operation can hand a secret on to
 * the execution data, which every user of the n8n instance may read. An answer nested deeper
 * than MAX_ANSWER_DEPTH throws UnreadableAnswer (fail closed): the walk's own depth stays bounded,
 * so it never runs out of stack, and a deep answer never passes unstripped.
 */
export function withoutSecrets(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') return withoutSecretsInText(value, depth);
	if (!value || typeof value !== 'object') return value;
	if (depth >= MAX_ANSWER_DEPTH)
		throw new UnreadableAnswer(`nested deeper than ${MAX_ANSWER_DEPTH} levels`);
	if (Array.isArray(value)) return value.map((inner) => withoutSecrets(inner, depth + 1));
	const copy: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
		if (!isSecretField(key, inner)) copy[key] = withoutSecrets(inner, depth + 1);
	}
	return copy;
}

/**
 * JSON text (an object or a list) with secrets inside, as the same text without them; any other
 * text as it is. Its levels count on from the field that holds it.
 */
function withoutSecretsInText(text: string, depth: number): string {
	const start = text.trimStart()[0];
	if (start !== '{' && start !== '[') return text;
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return text;
	}
	const stripped = withoutSecrets(parsed, depth);
	const again = JSON.stringify(stripped);
	return again === JSON.stringify(parsed) ? text : again;
}
