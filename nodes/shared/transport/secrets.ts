/**
 * Fields that hold a secret of someone's, wherever they sit in a service answer: a channel's
 * OAuth tokens (the real backend's Disconnect answers the whole channel record, `token` and
 * `refreshToken` included), passwords, keys, and `customInstanceDetails` (the real backend keeps
 * a self-hosted network's login in it, and strips it from its own post lists for that reason).
 * Names are compared in any case, with `_` and `-` ignored, so `refresh_token` and
 * `Client-Secret` count too.
 */
const SECRET_FIELDS = new Set([
	'token',
	'refreshtoken',
	'accesstoken',
	'secret',
	'password',
	'apikey',
	'clientsecret',
	'custominstancedetails',
]);

export function isSecretField(name: string): boolean {
	return SECRET_FIELDS.has(name.toLowerCase().replace(/[_-]/g, ''));
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
