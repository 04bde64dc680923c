/**
 * Fields that hold a secret of someone's, wherever they sit in a service answer: a channel's
 * OAuth tokens (the real backend's Disconnect answers the whole channel record, `token` and
 * `refreshToken` included), passwords, keys, sessions, and `customInstanceDetails` (the real
 * backend keeps a self-hosted network's login in it, and strips it from its own post lists for
 * that reason). The rule (docs/requests.md, "Secrets in answers"): a name is read by its parts
 * (`aws_secret_access_key`, `privateKeyPem`, `Client-Secret`, `apiKeys`; a part run together
 * that ends in a long secret word counts as it: `clientsecret`, `accesstoken`). It is a secret
 * when a part names one (SECRET_WORDS), singular or plural, or it names a connection to a data
 * store (`dsn`, `connectionString`, `databaseUrl`), unless a part after the last secret word, or
 * the part just before it, says the field only describes one (`tokenExpiration`,
 * `passwordHint`, `maxTokens`, `nextPageToken`, `passCount`; but `pageAccessToken` is one). A
 * key is a secret unless the part before it names or finds a thing (`publicKey`, `objectKey`,
 * `storageKey`; but `storageAccountKey`, `primaryKey` are) or a part after it describes it
 * (`keyId`); `key` alone is a name. A number under a token's name is a count; a boolean is
 * never a secret.
 */
const SECRET_FIELDS = new Set(['custominstancedetails', 'setcookie', 'apikey', 'privatekey']);
const SECRET_WORDS = new Set([
	'secret',
	'token',
	'password',
	'passwd',
	'pwd',
	'pass',
	'passphrase',
	'session',
	'sid',
	'auth',
	'authorization',
	'bearer',
	'credential',
	'cred',
	'pin',
	'otp',
	'totp',
	'mfa',
	'cookie',
	'jwt',
	'apikey',
	'dsn',
]);
/** Secret words long enough to be read at the end of a part run together (`clientsecret`). */
const RUN_TOGETHER = ['secret', 'token', 'password', 'passwd', 'passphrase', 'credential'];
/** Names of a connection to a data store, its login inside (`postgres://user:password@…`). */
const CONNECTION =
	/(?:connectionstring|(?:database|db|redis|mongo(?:db)?|postgres(?:ql)?|mysql|amqp|sql|broker)(?:url|uri|dsn))$/;
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
/** Parts just before `key` that make it a name or an address, not a secret. */
const NAMING_KEY = new Set([
	'public',
	'id',
	'name',
	'idempotency',
	'sort',
	'cache',
	'partition',
	'foreign',
	'object',
	'storage',
	'file',
	'media',
	's3',
]);

/** The parts of a name, lower case, plural `s` dropped (not `ss`): `aws_secret_access_key` → aws, secret, access, key. */
function partsOf(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean)
		.map((part) => (part.length > 3 && /[^s]s$/.test(part) ? part.slice(0, -1) : part))
		.map((part) => RUN_TOGETHER.find((word) => part.endsWith(word)) ?? part);
}

export function isSecretField(name: string, value?: unknown): boolean {
	if (typeof value === 'boolean') return false;
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
	const joined = name.toLowerCase().replace(/[^a-z0-9]/g, '');
	if (SECRET_FIELDS.has(joined) || CONNECTION.test(joined)) return 'secret';
	const parts = partsOf(name);
	let last = parts.length - 1;
	while (last >= 0 && !SECRET_WORDS.has(parts[last])) last--;
	if (last >= 0) {
		const describing = [parts[last - 1], ...parts.slice(last + 1)];
		if (describing.some((part) => DESCRIBING.has(part))) return 'not';
		return parts[last] === 'token' ? 'token' : 'secret';
	}
	const key = parts.lastIndexOf('key');
	if (key < 1) return 'not';
	if (NAMING_KEY.has(parts[key - 1])) return 'not';
	return parts.slice(key + 1).some((part) => DESCRIBING.has(part) || NAMING_KEY.has(part))
		? 'not'
		: 'secret';
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
 * text without the secrets written into it (withoutWrittenSecrets). Its levels count on from the
 * field that holds it.
 */
function withoutSecretsInText(text: string, depth: number): string {
	const start = text.trimStart()[0];
	if (start !== '{' && start !== '[') return withoutWrittenSecrets(text);
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return withoutWrittenSecrets(text);
	}
	const stripped = withoutSecrets(parsed, depth);
	const again = JSON.stringify(stripped);
	return again === JSON.stringify(parsed) ? text : again;
}

/**
 * Text that may hold a secret written into it: anything else is passed over without a search. A
 * URL's login needs an `@`, a secret in a query or a DSN an `=`: a plain link is passed over.
 */
const MAY_HOLD_SECRET = /[@="]|bearer|basic|authorization|cookie|api-key/i;
/**
 * Secrets written into text, found in one pass from left to right: a URL (its user info; its
 * query's secret-named values), an `Authorization`-like header line, `Bearer …` and a base64
 * `Basic user:password`, and a value under a secret's name (`password=…` in a DSN or a form,
 * `"token":"…"` in JSON cut short).
 */
const WRITTEN_SECRET = new RegExp(
	[
		String.raw`(?<url>\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\]+)`,
		String.raw`(?<header>\b(?:proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key)\s*:\s*)[^\r\n]+`,
		String.raw`\b(?<scheme>Bearer|Basic)\s+(?<credential>[A-Za-z0-9._~+/-]{8,}=*)`,
		String.raw`(?<quoted>"(?<quotedName>[\w.-]+)"\s*:\s*)"(?:[^"\\]|\\.)*"`,
		String.raw`(?<pair>\b(?<pairName>[\w.-]+)\s*=\s*)[^\s&;,"']+`,
	].join('|'),
	'gi',
);
/** A signed URL (S3, GCS, Azure SAS): a link to one file, made to be handed out; kept whole. */
const SIGNED_URL = /[?&](?:x-amz-signature|x-goog-signature|signature|sig)=/i;
const REDACTED = '[redacted]';

/** Text without the secrets written into it (see WRITTEN_SECRET); the rest as it was. */
export function withoutWrittenSecrets(text: string): string {
	if (!MAY_HOLD_SECRET.test(text)) return text;
	return text.replace(WRITTEN_SECRET, (match, ...args: unknown[]) => {
		const found = args[args.length - 1] as Record<string, string | undefined>;
		if (found.url) return withoutSecretsInUrl(found.url);
		if (found.header) return `${found.header}${REDACTED}`;
		if (found.scheme)
			return found.scheme.toLowerCase() === 'bearer' || isBasicLogin(found.credential ?? '')
				? `${found.scheme} ${REDACTED}`
				: match;
		if (found.quoted && isSecretField(found.quotedName ?? ''))
			return `${found.quoted}"${REDACTED}"`;
		if (found.pair && isSecretField(found.pairName ?? '')) return `${found.pair}${REDACTED}`;
		return match;
	});
}

/** A URL without its user info (`https://user:password@host`, a DSN) nor its query's secrets. */
function withoutSecretsInUrl(url: string): string {
	const anonymous = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${REDACTED}@`);
	if (SIGNED_URL.test(anonymous)) return anonymous;
	return anonymous.replace(
		/([?&;])([^=&#;]+)=([^&#;]*)/g,
		(match, separator: string, name: string) =>
			isSecretField(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : match,
	);
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** Whether a `Basic` credential is base64 of `user:password` (not "Basic features"). */
function isBasicLogin(credential: string): boolean {
	return /^[A-Za-z0-9+/]+=*$/.test(credential) && Buffer.from(credential, 'base64').includes(':');
}
