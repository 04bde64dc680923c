import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiBaseUrl, appUrl } from './instanceUrl';
import type { ApiContext } from './runContext';

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
}

/** An answer as the request helper returns it with returnFullResponse. */
export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

export async function readConnection(ctx: ApiContext, itemIndex: number | undefined): Promise<Connection> {
	const authentication = authenticationOf(ctx);
	const credentialType = credentialTypeOf(authentication);
	if (!credentialType) {
		throw new NodeOperationError(ctx.getNode(), `Unknown authentication "${String(authentication)}"`, {
			itemIndex,
			description: 'Choose "API Key" or "OAuth2" in the Authentication parameter.',
		});
	}
	const credentials = await ctx.getCredentials(credentialType);
	const credential = credentialLabel(ctx, credentialType, authentication);
	const instanceUrl = String(credentials.instanceUrl ?? '');
	const baseURL = apiBaseUrl(instanceUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseURL)) {
		throw new NodeOperationError(ctx.getNode(), 'The Instance URL in the credential is not a web address', {
			itemIndex,
			description: `Open ${credential} and enter the address of your instance, starting with https:// (for example https://app.example.com).`,
		});
	}
	const token = (credentials.oauthTokenData as IDataObject | undefined)?.access_token;
	const secret = authentication === 'oAuth2' ? (token as string | undefined) : (credentials.apiKey as string | undefined);
	if (!secret) {
		throw new NodeOperationError(
			ctx.getNode(),
			authentication === 'oAuth2' ? 'The OAuth2 credential is not connected' : 'The credential has no API key',
			{
				itemIndex,
				description:
					authentication === 'oAuth2'
						? `Open ${credential} and click "Connect my account" (or "Reconnect").`
						: `Open ${credential} and paste the API key created in the application.`,
			},
		);
	}
	return { appURL: appUrl(instanceUrl), baseURL, secret, host: new URL(baseURL).host };
}

/** The credential as the user knows it: the name they gave it, and its kind. */
function credentialLabel(ctx: ApiContext, credentialType: string, authentication: Authentication): string {
	const kind = authentication === 'oAuth2' ? 'Social Content OAuth2 API' : 'Social Content API';
	const name = ctx.getNode().credentials?.[credentialType]?.name;
	return name ? `the credential "${name}" (${kind})` : `the ${kind} credential`;
}

/** Execute contexts take an item index for parameters; load-options and poll contexts do not. */
function authenticationOf(ctx: ApiContext): Authentication {
	const getParameter = ctx.getNodeParameter as (name: string, ...rest: unknown[]) => unknown;
	const value = 'getInputData' in ctx ? getParameter.call(ctx, 'authentication', 0, 'apiKey') : getParameter.call(ctx, 'authentication', 'apiKey');
	return value as Authentication;
}

/**
 * Sends one request, with the credential only if it goes to the instance's own origin.
 *
 * The credential is read through n8n once per run (readConnection: n8n decrypts it and resolves
 * its expressions) and applied here as both credentials declare it: the key or token raw in
 * `Authorization`, no "Bearer". n8n's credential path (httpRequestWithAuthentication) would read,
 * decrypt and resolve it again for every request, through its expression engine: in a real n8n
 * that is most of an item's time (see BENCHMARKS.md). What that path guarantees is kept: the
 * request goes through the same n8n helper (proxies, SSRF policy, tracing); the credential goes
 * only to the instance's origin, never along a redirect to another one (n8n's default would
 * re-add it there); it is scrubbed from every message (errors.ts).
 */
export async function sendAuthenticated(
	ctx: ApiContext,
	connection: Connection,
	options: IHttpRequestOptions,
): Promise<RawResponse> {
	const target = new URL(options.url, options.baseURL ? `${options.baseURL}/` : undefined);
	const ownOrigin = target.origin === new URL(connection.baseURL).origin;
	const request: IHttpRequestOptions = {
		...options,
		headers: ownOrigin ? { ...options.headers, Authorization: connection.secret } : options.headers,
		sendCredentialsOnCrossOriginRedirect: false,
		// The credential path sets this for its requests; the plain helper leaves it to the caller.
		abortSignal: 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined,
	};
	return (await ctx.helpers.httpRequest(request)) as RawResponse;
}
