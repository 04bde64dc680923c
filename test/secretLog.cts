/**
 * For every test file: everything logged (n8n's logger at debug level, and anything written to
 * stdout or stderr) is searched for the fixtures' recognisable key and token. None may appear.
 */
import { LoggerProxy } from 'n8n-workflow';

import { API_KEY, OAUTH_TOKEN } from './helpers/secrets.cjs';

const SECRETS = [API_KEY, OAUTH_TOKEN, 'sk_sandbox_demo_key', 'client-secret-456'];
const leaks: string[] = [];
const scan = (text: string) => {
	for (const secret of SECRETS)
		if (text.includes(secret)) leaks.push(`${secret.slice(0, 6)}… in: ${text.slice(0, 200)}`);
};
const record =
	(level: string) =>
	(message: string, meta: object = {}) =>
		scan(
			`${level} ${message} ${JSON.stringify(meta, (_key, value: unknown) => (value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value))}`,
		);
LoggerProxy.init({
	error: record('error'),
	warn: record('warn'),
	info: record('info'),
	debug: record('debug'),
} as never);

for (const stream of [process.stdout, process.stderr]) {
	const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
	stream.write = ((chunk: unknown, ...rest: unknown[]) => {
		scan(String(chunk));
		return write(chunk, ...rest);
	}) as typeof stream.write;
}

afterAll(() => {
	expect(leaks).toEqual([]);
});
