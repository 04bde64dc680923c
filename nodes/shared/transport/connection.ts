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

/**
 * Where requests go and with which credential, read once per run: the application's address
 * (`appURL`, https://app.example.com) and the API's below it (`baseURL`, + /api/public/v1); the
 * key or token (`secret`, sent raw, scrubbed from anything shown); which credential sends it (a
 * rejected key and a revoked app are fixed differently), as the user knows it (`credential`).
 */
export interface Connection {
	appURL: string;
	baseURL: string;
	secret: string;
	host: string;
	authentication?: Authentication;
	credential?: string;
}

/** An answer as the request helper returns it with returnFullResponse. */
export type RawResponse = { statusCode: number; headers: IDataObject; body: unknown };

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
 * Sends one request, with the credential (raw in `Authorization`, as both credentials declare it)
 * only while it goes to the instance's own origin. n8n's credential path would read and resolve
 * the credential again for every request: most of an item's time in a real n8n (BENCHMARKS.md);
 * the same helper still sends it (proxies, SSRF policy). Redirects are followed here, not by n8n,
 * which before 2.4x puts `Authorization` back on every redirect whatever the host: a file that
 * redirects to a CDN is fetched there without the key, on every n8n version.
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
 * Where a redirect points, when the node follows it. A read follows one on the instance; off it
 * only a download does (an API call elsewhere would fail as a "wrong key" when the Instance URL is
 * what to fix). A write is never turned into a GET (its answer, a list, would pass for the
 * write's): only a 307/308 on the instance, and not for a streamed body, which cannot be sent
 * twice. Any other redirect is returned as it is, and fails naming the address (errors.ts).
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
