import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { namedField, serverMessages } from '../shapes/errors';

import type { Connection } from './connection';
import { movedInstanceUrl } from './instanceUrl';
import { operationHint } from '../hints';

/** Method and path of a request, as errors name it. */
export interface RequestLine {
	method: string;
	path: string;
	/** A file download: it may follow a redirect to another host (a CDN), without the credential. */
	download?: boolean;
}

export interface FailedResponse {
	statusCode: number;
	/** Parsed JSON body, or the raw text when it was not JSON. */
	body: unknown;
	method: string;
	path: string;
	/** What the request reads or changes, when the user named it by id (see ApiRequest). */
	about?: RequestSubject;
	/** What a 404 of this route means, where some instances do not have the route (see ApiRequest). */
	missingRoute?: MissingRoute;
	/** Where a redirect answer (3xx) pointed. */
	location?: string;
}

/** The thing a request is about, as the user named it: a post, a channel, a generation. */
export type RequestSubject = { kind: string; id: string };
export type MissingRoute = { message: string; description: string };

/** Where an error is raised: the node, its connection (whose secret never shows), the item. */
export interface ErrorContext {
	node: INode;
	connection: Connection;
	itemIndex?: number;
}

/** Replaces every occurrence of the credential's secret; the secret never reaches a user. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	// The secret may also sit inside a JSON string, where some characters are escaped.
	const escaped = JSON.stringify(secret).slice(1, -1);
	return text.split(secret).join('[redacted]').split(escaped).join('[redacted]');
}

/** A web page where JSON was expected (a login page, an SPA's index.html); JSON labelled `text/html` is still JSON. */
export function looksLikeHtml(body: string, contentType: string): boolean {
	if (/^\uFEFF?\s*</.test(body)) return true;
	return /text\/html/i.test(contentType) && !/^\uFEFF?\s*[[{"]/.test(body);
}

export function apiError(
	{ node, connection, itemIndex }: ErrorContext,
	response: FailedResponse,
	message: string,
	description: string,
): NodeApiError {
	const { secret } = connection;
	const errorResponse: JsonObject = {
		httpCode: String(response.statusCode),
		request: `${response.method} ${response.path}`,
		response: JSON.parse(redact(JSON.stringify(summarize(response.body)), secret)) as JsonObject,
	};
	return new NodeApiError(node, errorResponse, {
		message: redact(message, secret),
		description: redact(description, secret),
		httpCode: String(response.statusCode),
		itemIndex,
	});
}

function summarize(body: unknown): JsonObject | string {
	if (typeof body === 'string') return body.slice(0, 500);
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as JsonObject;
	return String(body ?? '');
}

export function statusError(at: ErrorContext, response: FailedResponse): NodeApiError {
	const { connection } = at;
	const said = serverMessages(response.body).map((line) => redact(line, connection.secret));
	const saidText = said.length ? said.join('; ') : '';
	const saidAfter = saidText ? `: ${saidText}` : '';
	const error = (message: string, description: string) =>
		apiError(at, response, message, description);

	if (response.statusCode === 404 && response.missingRoute && !response.about) {
		return error(response.missingRoute.message, response.missingRoute.description);
	}
	if (response.statusCode >= 300 && response.statusCode < 400) return redirectError(at, response);
	if (response.statusCode === 500 && response.about) {
		const { kind, id } = response.about;
		return error(
			`The service failed on ${kind} "${id}" (500): it may not exist, or not be yours${saidText ? ` (${saidText})` : ''}`,
			`Some instances answer 500 instead of 404 for an ID they do not know. Pick the ${kind} from the list, or check the ID and that the credential belongs to the account that owns it. If the ID is right, try again later.`,
		);
	}
	switch (response.statusCode) {
		case 400:
			return error(
				`The service rejected the request: ${saidText || 'validation failed'}`,
				rejectedFields(said),
			);
		case 401:
			return error(...rejectedCredential(connection));
		case 402:
			return error(
				'Not enough credits for this request. Nothing was reserved or charged',
				`Add credits in the application, or choose a cheaper format. ${operationHint('getCredits')} shows what is left.`,
			);
		case 403:
			return error(
				`The service refused access to ${response.method} ${response.path} (403)${saidAfter}`,
				"The credential works but may not use this feature. Check the account's plan or the OAuth app's permissions.",
			);
		case 404:
			return error(
				`Not found: ${response.method} ${response.path} (404)${saidAfter}`,
				'Check the ID you passed. If every request gives 404, check the Instance URL in the credential.',
			);
		case 503:
			return error(
				`This feature is not configured on this instance (503)${saidAfter}`,
				`The instance at ${connection.host} answered that ${response.path} is not set up. Ask its administrator to configure it, or use another instance.`,
			);
		default:
			return error(
				`The service answered ${response.statusCode} to ${response.method} ${response.path}${saidAfter}`,
				response.statusCode >= 500
					? "The service failed on its side. Try again later; if it persists, contact the instance's administrator."
					: 'Check the parameters and run again.',
			);
	}
}

/** A redirect the node did not follow: where it pointed, and whether the request may have been done. */
function redirectError(at: ErrorContext, response: FailedResponse): NodeApiError {
	const error = (message: string, description: string) =>
		apiError(at, response, message, description);
	const instance = new URL(at.connection.appURL).origin;
	// Where to point the credential, when the redirect leaves the instance.
	const moved =
		response.location && new URL(response.location, instance).origin !== instance
			? movedInstanceUrl(response.location, instance)
			: undefined;
	const fix = moved
		? `If the instance moved, set the Instance URL in the credential to ${moved}.`
		: "Check the Instance URL in the credential and the instance's proxy settings.";
	const read = response.method === 'GET' || response.method === 'HEAD';
	const to = response.location ?? 'no address';
	// A read is followed on the instance: what reaches here went elsewhere, or round in circles.
	return error(
		read
			? `The instance redirected ${response.method} ${response.path} (${response.statusCode}) to ${to}, ${moved ? 'another address, where the node does not take the credential' : 'which the node did not follow (no address, or more than 5 redirects)'}`
			: [301, 307, 308].includes(response.statusCode)
				? `The service redirected ${response.method} ${response.path} (${response.statusCode}) to ${to}; it was not sent there, so nothing was created or changed`
				: `The service answered ${response.method} ${response.path} with a redirect (${response.statusCode}) to ${to}; it may already have done it (a ${response.statusCode} usually follows a request that was carried out): check before running it again`,
		read
			? fix
			: [301, 307, 308].includes(response.statusCode)
				? `A ${response.statusCode} asks for the same request at the new address; the node does not send the credential there. ${fix}`
				: `Following it would have turned the request into a GET. Look in the application (or list what this operation creates) before running the node again, so nothing is made twice. ${fix}`,
	);
}

/**
 * A 401's message and advice, for the credential in use. The status is not in the message: n8n
 * shows the error's code beside it (its pickers as "401 - <message>").
 */
function rejectedCredential(connection: Connection): [message: string, description: string] {
	const credential = connection.credential ?? 'the credential';
	if (connection.authentication === 'oAuth2')
		return [
			"The service rejected the OAuth2 token: the app's access was revoked",
			`Its tokens never expire, so a rejected one was revoked. Open ${credential} and click "Connect my account" (or "Reconnect").`,
		];
	return [
		'The service rejected the API key: it is wrong, or was revoked',
		`Open ${credential} and paste a valid API key, created in the application under its agents area.`,
	];
}

/** What a 400 asks to fix: the fields the service named, with the values it allows. */
function rejectedFields(said: string[]): string {
	if (said.length > 1) return `Fix these fields and run again:\n- ${said.join('\n- ')}`;
	const named = namedField(said[0] ?? '');
	if (!named)
		return 'The service named no field: check the parameters this operation sends against its words, and run again.';
	const allowed = named.allowed ? `: send one of ${named.allowed}` : '';
	return `Fix "${named.field}", the field the service named${allowed}, and run again.`;
}

/** An answer that is not the API's JSON: a web page (`html`), or text that is not JSON. */
export function notApiAnswerError(at: ErrorContext, response: FailedResponse, html: boolean) {
	const { connection } = at;
	const [message, description] = !html
		? [
				'The service answered with something that is not JSON',
				`${connection.host} answered ${response.method} ${response.path} with a body that is not JSON. Check that the Instance URL is the address of your instance; if it is, the service may be failing.`,
			]
		: response.statusCode >= 500
			? [
					`The server answered ${response.statusCode} with a web page instead of the API's JSON`,
					`The service at ${connection.host}, or a proxy in front of it, is failing. Try again later. If it persists, check that the Instance URL is the address of your instance.`,
				]
			: [
					'The Instance URL serves a web page, not the API',
					`${connection.host} answered ${response.method} ${response.path} with HTML (status ${response.statusCode}). Set the Instance URL in the credential to the address of your instance, for example https://app.example.com, without extra paths.`,
				];
	return apiError(at, response, message, description);
}

/**
 * An answer the secret stripping could not read (UnreadableAnswer): none of it is shown, not even
 * in the error's details, and the error says so. A write that got a success may have been done.
 */
export function unreadableAnswerError(at: ErrorContext, response: FailedResponse, reason: string) {
	const { statusCode, method, path } = response;
	const maybeDone =
		statusCode >= 200 && statusCode < 300 && method !== 'GET'
			? ' The service accepted the request, so it may have been carried out: check in the application before running it again.'
			: '';
	return apiError(
		at,
		{ ...response, body: '' },
		`The service's answer could not be read safely (${reason}); nothing from it is shown`,
		`${at.connection.host} answered ${method} ${path} with status ${statusCode}. The node strips secrets from every answer before showing any of it, and could not strip this one, so it shows none of it.${maybeDone} If the instance is yours, check what it returns for this request; otherwise tell its administrator.`,
	);
}

/** "0.2 s", "45 s", "60 min", "2 h", "26,689 days" */
export function durationText(ms: number): string {
	if (ms < 10_000) return `${Number((ms / 1000).toFixed(1))} s`;
	if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
	if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
	if (ms < 172_800_000) return `${Number((ms / 3_600_000).toFixed(1))} h`;
	return `${Math.round(ms / 86_400_000).toLocaleString('en-US')} days`;
}

const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was reset',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	CERT_HAS_EXPIRED: 'its TLS certificate has expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

function networkCodeOf(error: unknown): string {
	const cause = error as { code?: unknown; cause?: { code?: unknown } };
	return String(cause?.cause?.code ?? cause?.code ?? '');
}

/** Whether the request went out (or tried to) and the network failed, as opposed to n8n refusing to send it. */
export function isNetworkError(error: unknown): boolean {
	const code = networkCodeOf(error);
	const names = [
		(error as Error)?.name,
		((error as { cause?: Error })?.cause as Error | undefined)?.name,
	];
	return /^E[A-Z_]+$/.test(code) || code in NETWORK_REASONS || names.includes('AxiosError');
}

/** A network error that is the request's Timeout running out, not a failure of the network. */
export function isTimeout(error: unknown): boolean {
	const code = networkCodeOf(error);
	return (
		code === 'ECONNABORTED' ||
		code === 'ETIMEDOUT' ||
		/timeout/i.test(String((error as Error)?.message))
	);
}

/** A file whose answer began and then broke off. */
export function brokenDownloadError(
	{ node, connection, itemIndex }: ErrorContext,
	request: RequestLine,
	cause: { error: unknown; tries: number; stalledAfterMs?: number },
): NodeApiError {
	const code = networkCodeOf(cause.error);
	const stalled =
		cause.stalledAfterMs !== undefined
			? `stalled: no data came for ${Math.round(cause.stalledAfterMs / 1000)} s (the Timeout)`
			: undefined;
	return new NodeApiError(
		node,
		{ networkErrorCode: code },
		{
			message: `The download of ${request.path} from ${connection.host} ${stalled ?? 'broke off before its end'}`,
			description: `${request.method} ${request.path} failed${code ? ` (${code})` : ''}; nothing of it was kept. It was tried ${cause.tries} time${cause.tries === 1 ? '' : 's'}. ${stalled ? 'The file server stopped sending: try again later, or raise the Timeout (Request Options) for a slow server.' : 'The connection to the file server broke: try again later.'}`,
			itemIndex,
		},
	);
}

/** n8n refused to send the request (its SSRF policy, a bad option), as opposed to a network failure. */
export function requestNotSentError({ node, connection, itemIndex }: ErrorContext, error: unknown) {
	const message = redact(String((error as Error)?.message ?? error), connection.secret);
	const said = (error as { description?: unknown })?.description;
	return new NodeOperationError(node, `The request could not be sent: ${message}`, {
		itemIndex,
		description:
			typeof said === 'string'
				? redact(said, connection.secret)
				: "Check the credential and the node's parameters.",
	});
}

/** The request went out (or tried to) and no answer came back. */
export function networkError(
	{ node, connection, itemIndex }: ErrorContext,
	request: RequestLine,
	error: unknown,
	attempts: { made: number; timeoutMs: number; callBoundMs?: number },
): NodeApiError {
	const code = networkCodeOf(error);
	const timedOut = isTimeout(error);
	const tries =
		request.method === 'GET'
			? `It was tried ${attempts.made} time${attempts.made === 1 ? '' : 's'}.`
			: 'It was not sent again, since it may have reached the service: check in the application before running it again.';
	// Our own words only: n8n's text for these codes ("perhaps the server is offline") is wrong
	// for a slow server, and the HTTP client's error carries the request's headers.
	const known = NETWORK_REASONS[code];
	const detail =
		known || timedOut
			? ''
			: `: ${redact(String((error as Error)?.message ?? ''), connection.secret)
					.slice(0, 200)
					.replace(/[.\s]+$/, '')}`;
	// A tool call's bound, not the Timeout, cut the wait for the answer.
	const bound = timedOut ? attempts.callBoundMs : undefined;
	const message = bound
		? `${connection.host} did not answer within what was left of this call (${Math.round(bound / 1000)} s at most)`
		: timedOut
			? `${connection.host} did not answer within ${Math.round(attempts.timeoutMs / 1000)} s`
			: `Could not reach ${connection.host}: ${known ?? 'the request failed'}`;
	const advice = bound
		? `A tool call answers within its bound, since its caller gives up soon after${request.method === 'GET' ? ': make the call again.' : '.'}`
		: timedOut
			? 'The service may be busy. Raise "Timeout" under Request Options if it is often slow.'
			: 'Check the Instance URL in the credential and that the instance is up.';
	// The code stays out of the message, which NodeApiError would otherwise swap for a generic text.
	return new NodeApiError(
		node,
		{ networkErrorCode: code },
		{
			message,
			description: `${request.method} ${request.path} failed${code ? ` (${code})` : ''}${detail}. ${tries} ${advice}`,
			itemIndex,
		},
	);
}
