import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiBaseUrl, appUrl } from './instanceUrl';
import { FileAddressRefused, fileAddressRefusal } from '../publicAddress';

/** The n8n functions a request can be made from: an execution, a dropdown, a trigger poll. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export type Authentication = 'apiKey' | 'oAuth2';

/** The credential type behind each choice of the Authentication parameter. */
export function credentialTypeOf(authentication: Authentication): string | undefined {
	if (authentication === 'apiKey') return 'socialContentApi';
	if (authentication === 'oAuth2') return 'socialContentOAuth2Api';
	return undefined;
}

/** Where requests go and with which credential: read once per run from the node's credential. */
export interface Connection {
	/** The application's address, e.g. https://app.example.com */
	appURL: string;
	/** The public API's base, appURL + /api/public/v1 */
	baseURL: string;
	/** The key or token, sent raw in Authorization; scrubbed from anything shown to the user. */
	secret: string;
	host: string;
	/** Which credential sends it: a rejected key and a revoked app are fixed differently. */
	authentication?: Authentication;
	/** The credential as the user knows it: `the credential "Acme" (Social Content API)`. */
	credential?: string;
}

/** An answer as the request helper returns it with returnFullResponse. */
export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

export async function readConnection(
	ctx: ApiContext,
	itemIndex: number | undefined,
): Promise<Connection> {
	const authentication = authenticationOf(ctx);
	const credentialType = credentialTypeOf(authentication);
	const refuse = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	if (!credentialType)
		throw refuse(
			`Unknown authentication "${String(authentication)}"`,
			'Choose "API Key" or "OAuth2" in the Authentication parameter.',
		);
	const credentials = await ctx.getCredentials(credentialType);
	const credential = credentialLabel(ctx, credentialType, authentication);
	const instanceUrl = String(credentials.instanceUrl ?? '');
	const baseURL = apiBaseUrl(instanceUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseURL))
		throw refuse(
			'The Instance URL in the credential is not a web address',
			`Open ${credential} and enter the address of your instance, starting with https:// (for example https://app.example.com).`,
		);
	const token = (credentials.oauthTokenData as IDataObject | undefined)?.access_token;
	const oAuth2 = authentication === 'oAuth2';
	const secret = (oAuth2 ? token : credentials.apiKey) as string | undefined;
	if (!secret)
		throw oAuth2
			? refuse(
					'The OAuth2 credential is not connected',
					`Open ${credential} and click "Connect my account" (or "Reconnect").`,
				)
			: refuse(
					'The credential has no API key',
					`Open ${credential} and paste the API key created in the application.`,
				);
	return {
		appURL: appUrl(instanceUrl),
		baseURL,
		secret,
		host: new URL(baseURL).host,
		authentication,
		credential,
	};
}

/** The credential as the user knows it: the name they gave it, and its kind. */
function credentialLabel(
	ctx: ApiContext,
	credentialType: string,
	authentication: Authentication,
): string {
	const kind = authentication === 'oAuth2' ? 'Social Content OAuth2 API' : 'Social Content API';
	const name = ctx.getNode().credentials?.[credentialType]?.name;
	return name ? `the credential "${name}" (${kind})` : `the ${kind} credential`;
}

/** Execute contexts take an item index for parameters; load-options and poll contexts do not. */
function authenticationOf(ctx: ApiContext): Authentication {
	const getParameter = ctx.getNodeParameter as (name: string, ...rest: unknown[]) => unknown;
	const value =
		'getInputData' in ctx
			? getParameter.call(ctx, 'authentication', 0, 'apiKey')
			: getParameter.call(ctx, 'authentication', 'apiKey');
	return value as Authentication;
}

/** Redirects followed for a request that carries the credential, before its answer is returned as is. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/**
 * Sends one request, with the credential only while it goes to the instance's own origin.
 *
 * The credential is read through n8n once per run (readConnection: n8n decrypts it and resolves
 * its expressions) and applied here as both credentials declare it: the key or token raw in
 * `Authorization`, no "Bearer". n8n's credential path (httpRequestWithAuthentication) would read,
 * decrypt and resolve it again for every request, through its expression engine: in a real n8n
 * that is most of an item's time (see BENCHMARKS.md). What that path guarantees is kept: the
 * request goes through the same n8n helper (proxies, SSRF policy, tracing); the credential is
 * scrubbed from every message (errors.ts).
 *
 * Redirects of a request carrying the credential are followed here, not by n8n: n8n before 2.4x
 * puts `Authorization` back on every redirect whatever the host (n8n-core's beforeRedirect), and
 * later versions do unless told not to. So an output file that redirects to a CDN or presigned
 * storage is fetched from there without the key, on every n8n version.
 */
export async function sendAuthenticated(
	ctx: ApiContext,
	connection: Connection,
	options: IHttpRequestOptions,
	{ followOffInstance = true }: { followOffInstance?: boolean } = {},
): Promise<RawResponse> {
	const instanceOrigin = new URL(connection.baseURL).origin;
	let target = absoluteUrl(options.url, options.baseURL);
	let request: IHttpRequestOptions = {
		...options,
		url: target.href,
		baseURL: undefined,
		// The credential path sets this for its requests; the plain helper leaves it to the caller.
		abortSignal: cancelSignalOf(ctx),
	};
	for (let redirects = 0; ; redirects++) {
		// Off the instance (a file on a CDN), without the credential; each address of a redirect
		// chain is judged before it is asked (publicAddress.ts: fileAddressRefusal).
		const onInstance = target.origin === instanceOrigin;
		const refused = onInstance ? undefined : fileAddressRefusal(target, new URL(instanceOrigin));
		if (refused) throw new FileAddressRefused(target, refused);
		const response = (await ctx.helpers.httpRequest({
			...request,
			...(onInstance ? { headers: { ...request.headers, Authorization: connection.secret } } : {}),
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		})) as RawResponse;
		const next = redirectOf(request, response, target, instanceOrigin, followOffInstance);
		if (!next || redirects >= MAX_REDIRECTS) return response;
		discardBody(response);
		target = new URL(next, target);
		request = { ...request, url: target.href };
	}
}

/** The request's address as axios joins it: a relative url is appended to baseURL's path. */
function absoluteUrl(url: string, baseURL: string | undefined): URL {
	if (!baseURL || /^[a-z][a-z\d+.-]*:/i.test(url)) return new URL(url);
	return new URL(`${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`);
}

/**
 * Where a redirect answer points, when the node follows it. A read follows a redirect on the
 * instance; off it only a file download does (to a CDN, without the credential): an API call sent
 * to another host would fail there as a "wrong key", when the Instance URL is what to fix. A write
 * (POST, DELETE) is never turned into a GET, as browsers and axios would on 301/302/303: the
 * answer to that GET (a list) would pass for the write's, and nothing was written. It follows
 * only a 307/308 that keeps it on the instance, with its method and body, and not for a
 * streamed body (an upload), which cannot be sent twice. Any other redirect is returned as it
 * is, and the transport fails it naming the address (errors.ts).
 */
function redirectOf(
	request: IHttpRequestOptions,
	response: RawResponse,
	from: URL,
	instanceOrigin: string,
	followOffInstance: boolean,
): string | undefined {
	if (!REDIRECT_STATUSES.includes(response.statusCode)) return undefined;
	const location = locationOf(response);
	if (!location) return undefined;
	const onInstance = new URL(location, from).origin === instanceOrigin;
	const method = (request.method ?? 'GET').toUpperCase();
	if (method === 'GET' || method === 'HEAD')
		return onInstance || followOffInstance ? location : undefined;
	if (![307, 308].includes(response.statusCode) || !onInstance) return undefined;
	const body = request.body as { pipe?: unknown; [Symbol.asyncIterator]?: unknown } | undefined;
	const streamed =
		!!body &&
		typeof body === 'object' &&
		(typeof body.pipe === 'function' || typeof body[Symbol.asyncIterator] === 'function');
	return streamed ? undefined : location;
}

export function cancelSignalOf(ctx: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** The Location header of an answer, when it has one. */
export function locationOf(response: RawResponse): string | undefined {
	const location = Object.entries(response.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'location',
	)?.[1];
	return typeof location === 'string' && location ? location : undefined;
}

/** Lets go of an answer's body without reading it (a stream is closed, its socket freed). */
export function discardBody(response: RawResponse): void {
	const body = response.body as { destroy?: () => void } | undefined;
	if (body && typeof body === 'object' && typeof body.destroy === 'function') body.destroy();
}
