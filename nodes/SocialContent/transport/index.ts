import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiError, looksLikeHtml, redact, serverMessages, type FailedResponse } from './errors';
import { apiBaseUrl, appUrl } from './instanceUrl';
import { StreamingForm } from './multipart';
import { retryAfterMs } from './rateLimit';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export type Authentication = 'apiKey' | 'oAuth2';

/** The credential type behind each choice of the Authentication parameter. */
export function credentialTypeOf(authentication: Authentication): string | undefined {
	if (authentication === 'apiKey') return 'socialContentApi';
	if (authentication === 'oAuth2') return 'socialContentOAuth2Api';
	return undefined;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /api/public/v1, starting with a slash. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | StreamingForm;
}

export interface RequestLimits {
	/** Most time, in milliseconds, one request may spend waiting on 429 answers. */
	maxRateLimitWaitMs: number;
	/** How long, in milliseconds, a request may go without hearing from the service. */
	timeoutMs: number;
}

export const DEFAULT_LIMITS: RequestLimits = { maxRateLimitWaitMs: 60_000, timeoutMs: 120_000 };

/** Delays before the retries of a read whose answer was lost (network error or 500/502/504). */
export const READ_RETRY_DELAYS_MS = [300, 1000];

/** Shortest wait after a 429, whatever the service says. */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
/** Most 429 answers one request takes before it fails, whatever the waits add up to. */
export const MAX_RATE_LIMITED_TRIES = 100;

/** Statuses after which a read is tried again: the server may answer differently next time. */
const TRANSIENT_STATUSES = [500, 502, 504];

interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: string;
}

/**
 * The one way this package talks to the service: JSON in, JSON out, errors that say what to do.
 *
 * - Auth follows the node's Authentication parameter; both the API key and the OAuth2 token go
 *   into `Authorization` raw, without "Bearer".
 * - 429 waits as the server asks (bounded by `limits`) and retries, for every method: the server
 *   did nothing. Lost reads are retried a bounded number of times; writes never are, so nothing
 *   is created or charged twice.
 */
export async function apiRequest(
	this: ApiContext,
	request: ApiRequest,
	itemIndex?: number,
): Promise<unknown> {
	const connection = await connectionOf(this, itemIndex);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: connection.baseURL,
		url: request.path,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		headers: { Accept: 'application/json' },
		// Following redirects would keep a copy of the whole body for replay: not for streamed files.
		disableFollowRedirect: request.body instanceof StreamingForm,
		// Read the body as text ourselves: a web page must never pass for a successful answer.
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: limitsOf(this, itemIndex).timeoutMs,
	};
	const response = await exchange(this, connection, request, itemIndex, async () => await sendAuthenticated(this, connection, options));
	return readBody(this, connection, request, response, itemIndex);
}

export interface DownloadedFile {
	data: Buffer;
	mimeType: string | undefined;
	/** The file name from Content-Disposition or the URL's last segment. */
	fileName: string | undefined;
}

/**
 * Downloads a file the service points to (a studio output, a media library file). A path is
 * resolved against the instance; the credential is sent only to the instance's own origin, never
 * to another host (a CDN, a storage bucket).
 */
export async function downloadFile(this: ApiContext, location: string, itemIndex?: number): Promise<DownloadedFile> {
	const connection = await connectionOf(this, itemIndex);
	const url = new URL(location, `${connection.appURL}/`);
	const request: ApiRequest = { method: 'GET', path: url.pathname };
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: url.toString(),
		encoding: 'arraybuffer',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: limitsOf(this, itemIndex).timeoutMs,
	};
	const sameOrigin = url.origin === new URL(connection.baseURL).origin;
	const response = await exchange(this, connection, request, itemIndex, async () =>
		sameOrigin
			? await sendAuthenticated(this, connection, options)
			: ((await this.helpers.httpRequest(options)) as RawResponse),
	);
	const data = Buffer.from(response.body as unknown as ArrayBuffer);
	if (response.statusCode < 200 || response.statusCode >= 300) {
		throw statusError(this, connection, { statusCode: response.statusCode, body: parseJson(data.toString('utf8')), method: 'GET', path: url.pathname }, itemIndex);
	}
	const disposition = String(response.headers['content-disposition'] ?? '');
	const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
	const lastSegment = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
	const contentType = String(response.headers['content-type'] ?? '').split(';')[0].trim();
	return { data, mimeType: contentType || undefined, fileName: named ?? (lastSegment || undefined) };
}

/**
 * Sends a request until it has an answer worth reading: waits out 429s (any method, bounded by
 * the node's Max Rate Limit Wait) and retries reads that were lost or hit 500/502/504.
 */
async function exchange(
	ctx: ApiContext,
	connection: Connection,
	request: ApiRequest,
	itemIndex: number | undefined,
	sendOnce: () => Promise<RawResponse>,
): Promise<RawResponse> {
	const limits = limitsOf(ctx, itemIndex);
	const isRead = request.method === 'GET';
	const signal = cancelSignalOf(ctx);
	const gate = rateLimitGateOf(ctx);
	let waitedForRateLimitMs = 0;
	let rateLimitedTries = 0;
	let readRetries = 0;

	for (;;) {
		// Another request of this run was told to wait: this one waits too, then takes the next
		// slot, spaced as the service asked, so the run paces itself instead of collecting 429s.
		const now = Date.now();
		if (gate.pausedUntil > now) {
			const slot = gate.pausedUntil;
			gate.pausedUntil = slot + gate.spacingMs;
			await sleep(slot - now, signal);
		}
		let response: RawResponse;
		try {
			response = await sendOnce();
		} catch (error) {
			if (!isNetworkError(error)) throw requestNotSentError(ctx, connection, error, itemIndex);
			if (isRead && !signal?.aborted && readRetries < READ_RETRY_DELAYS_MS.length) {
				await sleep(READ_RETRY_DELAYS_MS[readRetries++], signal);
				continue;
			}
			throw networkError(ctx, connection, request, error, itemIndex);
		}

		const { statusCode } = response;
		if (statusCode === 429) {
			const body = parseJson(bodyText(response));
			// A floor under each wait, so a "retry after 0" (or a date in the past) still counts
			// against Max Rate Limit Wait, and a cap on tries: a 429 loop always ends.
			const waitMs = Math.max(retryAfterMs(body, response.headers), MIN_RATE_LIMIT_WAIT_MS);
			rateLimitedTries++;
			if (waitedForRateLimitMs + waitMs > limits.maxRateLimitWaitMs || rateLimitedTries >= MAX_RATE_LIMITED_TRIES) {
				throw rateLimitError(ctx, connection, request, body, { waitedMs: waitedForRateLimitMs, tries: rateLimitedTries }, limits, itemIndex);
			}
			waitedForRateLimitMs += waitMs;
			gate.pausedUntil = Math.max(gate.pausedUntil, Date.now() + waitMs);
			gate.spacingMs = waitMs;
			continue;
		}
		if (isRead && TRANSIENT_STATUSES.includes(statusCode) && readRetries < READ_RETRY_DELAYS_MS.length) {
			await sleep(READ_RETRY_DELAYS_MS[readRetries++], signal);
			continue;
		}
		return response;
	}
}

interface RateLimitGate {
	/** Until when (ms since epoch) every request of the run holds back. */
	pausedUntil: number;
	/** Time between the requests let through after a pause: the last wait the service asked for. */
	spacingMs: number;
}

// One gate per node run (its context object), shared by the requests that run side by side.
const rateLimitGates = new WeakMap<object, RateLimitGate>();

function rateLimitGateOf(ctx: ApiContext): RateLimitGate {
	let gate = rateLimitGates.get(ctx);
	if (!gate) {
		gate = { pausedUntil: 0, spacingMs: 0 };
		rateLimitGates.set(ctx, gate);
	}
	return gate;
}

function bodyText(response: RawResponse): string {
	const body = response.body as unknown;
	if (typeof body === 'string') return body;
	if (body instanceof ArrayBuffer || Buffer.isBuffer(body)) return Buffer.from(body as ArrayBuffer).toString('utf8');
	return String(body ?? '');
}

interface Connection {
	credentialType: string;
	/** The application's address, e.g. https://app.example.com */
	appURL: string;
	/** The public API's base, appURL + /api/public/v1 */
	baseURL: string;
	/** Kept only to scrub it from anything shown to the user. */
	secret: string | undefined;
	host: string;
}

// Credentials do not change during a run: read them once per node run (its context object).
const connections = new WeakMap<object, Promise<Connection>>();

async function connectionOf(ctx: ApiContext, itemIndex: number | undefined): Promise<Connection> {
	let connection = connections.get(ctx);
	if (!connection) {
		connection = readConnection(ctx, itemIndex);
		connections.set(ctx, connection);
		connection.catch(() => connections.delete(ctx));
	}
	return await connection;
}

async function readConnection(ctx: ApiContext, itemIndex: number | undefined): Promise<Connection> {
	const authentication = authenticationOf(ctx);
	const credentialType = credentialTypeOf(authentication);
	if (!credentialType) {
		throw new NodeOperationError(ctx.getNode(), `Unknown authentication "${String(authentication)}"`, {
			itemIndex,
			description: 'Choose "API Key" or "OAuth2" in the Authentication parameter.',
		});
	}
	const credentials = await ctx.getCredentials(credentialType);
	const instanceUrl = String(credentials.instanceUrl ?? '');
	const baseURL = apiBaseUrl(instanceUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseURL)) {
		throw new NodeOperationError(ctx.getNode(), 'The Instance URL in the credential is not a web address', {
			itemIndex,
			description: `Open the "${credentialType}" credential and enter the address of your instance, starting with https:// (for example https://app.example.com).`,
		});
	}
	const token = (credentials.oauthTokenData as IDataObject | undefined)?.access_token;
	const secret = authentication === 'oAuth2' ? (token as string | undefined) : (credentials.apiKey as string | undefined);
	return { credentialType, appURL: appUrl(instanceUrl), baseURL, secret, host: new URL(baseURL).host };
}

/** The node's Request Options where it has them (the action node), else the defaults. */
function limitsOf(ctx: ApiContext, itemIndex: number | undefined): RequestLimits {
	if (!('getInputData' in ctx)) return DEFAULT_LIMITS;
	const seconds = (name: string, fallbackMs: number) =>
		Number(ctx.getNodeParameter(`requestOptions.${name}`, itemIndex ?? 0, fallbackMs / 1000));
	return {
		maxRateLimitWaitMs: Math.max(0, seconds('maxRateLimitWait', DEFAULT_LIMITS.maxRateLimitWaitMs) || 0) * 1000,
		timeoutMs: Math.max(1, seconds('timeout', DEFAULT_LIMITS.timeoutMs) || 120) * 1000,
	};
}

/** Execute contexts take an item index for parameters; load-options and poll contexts do not. */
function authenticationOf(ctx: ApiContext): Authentication {
	const getParameter = ctx.getNodeParameter as (name: string, ...rest: unknown[]) => unknown;
	const value = 'getInputData' in ctx ? getParameter.call(ctx, 'authentication', 0, 'apiKey') : getParameter.call(ctx, 'authentication', 'apiKey');
	return value as Authentication;
}

function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

async function sendAuthenticated(
	ctx: ApiContext,
	connection: Connection,
	options: IHttpRequestOptions,
): Promise<RawResponse> {
	// n8n keeps Authorization on a redirect to another origin unless told not to: a file URL that
	// redirects to a CDN or a presigned storage URL must never receive the key or token.
	const guarded: IHttpRequestOptions = { ...options, sendCredentialsOnCrossOriginRedirect: false };
	return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, connection.credentialType, guarded, {
		// Sends the OAuth2 token raw. Tokens never expire, so there is nothing to refresh: a 401
		// means the app was revoked, and n8n's refresh path would re-add "Bearer".
		oauth2: { keepBearer: false, tokenType: 'Bearer', skipTokenRefresh: true },
	})) as RawResponse;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function readBody(
	ctx: ApiContext,
	connection: Connection,
	request: ApiRequest,
	response: RawResponse,
	itemIndex: number | undefined,
): unknown {
	const text = bodyText(response);
	const contentType = String(response.headers['content-type'] ?? '');
	const failed: FailedResponse = {
		statusCode: response.statusCode,
		body: text,
		method: request.method,
		path: request.path,
	};
	const ok = response.statusCode >= 200 && response.statusCode < 300;

	if (text.trim() !== '' && looksLikeHtml(text, contentType)) {
		throw wrongInstanceError(ctx, connection, failed, itemIndex);
	}
	let body: unknown = ok ? {} : '';
	if (text.trim() !== '') {
		try {
			body = JSON.parse(text);
		} catch {
			if (ok) throw notJsonError(ctx, connection, failed, itemIndex);
			body = text;
		}
	}
	if (ok) return body;
	throw statusError(ctx, connection, { ...failed, body }, itemIndex);
}

function statusError(
	ctx: ApiContext,
	connection: Connection,
	response: FailedResponse,
	itemIndex: number | undefined,
): NodeApiError {
	const said = serverMessages(response.body).map((line) => redact(line, connection.secret));
	const saidText = said.length ? said.join('; ') : '';
	const error = (message: string, description: string) =>
		apiError(ctx.getNode(), response, message, description, itemIndex, connection.secret);

	switch (response.statusCode) {
		case 400:
			return error(
				`The service rejected the request: ${saidText || 'validation failed'}`,
				said.length > 1
					? `Fix these fields and run again:\n- ${said.join('\n- ')}`
					: 'Fix the parameter named above and run again.',
			);
		case 401:
			return error(
				'The service rejected the credential (401): the API key or token is missing, wrong, or was revoked',
				'Open the credential and check the API key. For OAuth2, tokens never expire: a 401 means the app was revoked, so reconnect the credential.',
			);
		case 402:
			return error(
				'Not enough credits for this request. Nothing was reserved or charged',
				'Add credits in the application, or choose a cheaper format. "Studio → Get Credits" shows what is left.',
			);
		case 403:
			return error(
				`The service refused access to ${response.method} ${response.path} (403)${saidText ? `: ${saidText}` : ''}`,
				'The credential works but may not use this feature. Check the account\'s plan or the OAuth app\'s permissions.',
			);
		case 404:
			return error(
				`Not found: ${response.method} ${response.path} (404)${saidText ? `: ${saidText}` : ''}`,
				'Check the ID you passed. If every request gives 404, check the Instance URL in the credential.',
			);
		case 503:
			return error(
				`This feature is not configured on this instance (503)${saidText ? `: ${saidText}` : ''}`,
				`The instance at ${connection.host} answered that ${response.path} is not set up. Ask its administrator to configure it, or use another instance.`,
			);
		default:
			return error(
				`The service answered ${response.statusCode} to ${response.method} ${response.path}${saidText ? `: ${saidText}` : ''}`,
				response.statusCode >= 500
					? 'The service failed on its side. Try again later; if it persists, contact the instance\'s administrator.'
					: 'Check the parameters and run again.',
			);
	}
}

function wrongInstanceError(
	ctx: ApiContext,
	connection: Connection,
	response: FailedResponse,
	itemIndex: number | undefined,
): NodeApiError {
	if (response.statusCode >= 500) {
		return apiError(
			ctx.getNode(),
			response,
			`The server answered ${response.statusCode} with a web page instead of the API's JSON`,
			`The service at ${connection.host}, or a proxy in front of it, is failing. Try again later. If it persists, check that the Instance URL is the address of your instance.`,
			itemIndex,
			connection.secret,
		);
	}
	return apiError(
		ctx.getNode(),
		response,
		'The Instance URL serves a web page, not the API',
		`${connection.host} answered ${response.method} ${response.path} with HTML (status ${response.statusCode}). Set the Instance URL in the credential to the address of your instance, for example https://app.example.com, without extra paths.`,
		itemIndex,
		connection.secret,
	);
}

function notJsonError(
	ctx: ApiContext,
	connection: Connection,
	response: FailedResponse,
	itemIndex: number | undefined,
): NodeApiError {
	return apiError(
		ctx.getNode(),
		response,
		'The service answered with something that is not JSON',
		`${connection.host} answered ${response.method} ${response.path} with a body that is not JSON. Check that the Instance URL is the address of your instance; if it is, the service may be failing.`,
		itemIndex,
		connection.secret,
	);
}

function rateLimitError(
	ctx: ApiContext,
	connection: Connection,
	request: ApiRequest,
	body: unknown,
	spent: { waitedMs: number; tries: number },
	limits: RequestLimits,
	itemIndex: number | undefined,
): NodeApiError {
	const data = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const bucket = data.bucket !== undefined ? ` on bucket "${String(data.bucket)}"` : '';
	const limit = data.limit !== undefined ? ` (limit ${String(data.limit)})` : '';
	const retryAfter = data.retryAfter !== undefined ? `; retryAfter ${String(data.retryAfter)}` : '';
	return apiError(
		ctx.getNode(),
		{ statusCode: 429, body, method: request.method, path: request.path },
		`Rate limited${bucket}${limit}${retryAfter}`,
		spent.tries >= MAX_RATE_LIMITED_TRIES
			? `The service answered 429 ${spent.tries} times in a row to this request (waited ${Math.round(spent.waitedMs / 1000)} s); it gives up rather than loop. Lower "Concurrent Requests" or send fewer items at once, and check the instance's rate limits.`
			: `Waited ${Math.round(spent.waitedMs / 1000)} s in total, and the next wait would pass the node's "Max Rate Limit Wait" of ${Math.round(limits.maxRateLimitWaitMs / 1000)} s. Raise that option under Request Options, or send fewer items at once.`,
		itemIndex,
		connection.secret,
	);
}

const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was reset',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	ETIMEDOUT: 'it timed out',
	ECONNABORTED: 'it timed out',
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
function isNetworkError(error: unknown): boolean {
	const code = networkCodeOf(error);
	const names = [(error as Error)?.name, ((error as { cause?: Error })?.cause as Error | undefined)?.name];
	return /^E[A-Z_]+$/.test(code) || code in NETWORK_REASONS || names.includes('AxiosError');
}

/** n8n refused to send the request, e.g. an OAuth2 credential that was never connected. */
function requestNotSentError(
	ctx: ApiContext,
	connection: Connection,
	error: unknown,
	itemIndex: number | undefined,
): NodeOperationError {
	const message = redact(String((error as Error)?.message ?? error), connection.secret);
	if (/not connected/i.test(message)) {
		return new NodeOperationError(ctx.getNode(), 'The OAuth2 credential is not connected', {
			itemIndex,
			description: 'Open the Social Content OAuth2 credential and click "Connect my account".',
		});
	}
	return new NodeOperationError(ctx.getNode(), `The request could not be sent: ${message}`, {
		itemIndex,
		description: 'Check the credential and the node\'s parameters.',
	});
}

function networkError(
	ctx: ApiContext,
	connection: Connection,
	request: ApiRequest,
	error: unknown,
	itemIndex: number | undefined,
): NodeApiError {
	const code = networkCodeOf(error);
	const reason = NETWORK_REASONS[code] ?? 'the request failed';
	const detail = redact(String((error as Error)?.message ?? ''), connection.secret).slice(0, 200);
	const tries =
		request.method === 'GET'
			? `It was tried ${READ_RETRY_DELAYS_MS.length + 1} times.`
			: 'It was not retried, since it may have reached the service: check in the application before running it again.';
	// A fresh error, not a wrap of the HTTP client's: that one carries the request's headers. The
	// code stays out of the message, which NodeApiError would otherwise swap for a generic text.
	return new NodeApiError(
		ctx.getNode(),
		{ networkErrorCode: code, detail },
		{
			message: `Could not reach ${connection.host}: ${reason}`,
			description: `${request.method} ${request.path} failed${code ? ` (${code})` : ''}: ${detail}. ${tries} Check the Instance URL in the credential and that the instance is up.`,
			itemIndex,
		},
	);
}
