/**
 * Fields that hold a secret of someone's, wherever they sit in a service answer: a channel's
 * OAuth tokens (the real backend's Disconnect answers the whole channel record, `token` and
 * `refreshToken` included), passwords, keys, and `customInstanceDetails` (the real backend keeps
 * a self-hosted network's login in it, and strips it from its own post lists for that reason).
 * Names are compared in any case, with `_` and `-` ignored, so `refresh_token` and
 * `Client-Secret` count too; so does any name ending in token, secret, password or key of a kind
 * (`idToken`, `oauth_token_secret`, `appPassword`, `privateKey`), except a page's token, which
 * only points to the next page.
 */
const SECRET_FIELDS = new Set([
	'apikey',
	'authorization',
	'cookie',
	'setcookie',
	'custominstancedetails',
	'jwt',
	'privatekey',
	'signingkey',
	'credentials',
]);
const SECRET_ENDINGS = ['token', 'secret', 'password', 'passwd', 'apikey', 'privatekey'];
const PAGE_TOKENS = ['pagetoken', 'continuationtoken', 'cursortoken'];

export function isSecretField(name: string): boolean {
	const key = name.toLowerCase().replace(/[_-]/g, '');
	if (PAGE_TOKENS.some((ending) => key.endsWith(ending))) return false;
	return SECRET_FIELDS.has(key) || SECRET_ENDINGS.some((ending) => key.endsWith(ending));
}

/**
 * A service answer without its secret fields, at any depth. Every answer passes here before it
 * becomes an item or an error (transport: parseAnswer), so no operation can hand a secret on to
 * the execution data, which every user of the n8n instance may read.
 */
export function withoutSecrets(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutSecrets);
	if (!value || typeof value !== 'object') return value;
	const copy: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
		if (!isSecretField(key)) copy[key] = withoutSecrets(inner);
	}
	return copy;
}
