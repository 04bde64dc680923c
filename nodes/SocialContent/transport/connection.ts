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
	credentialType: string;
	/** The application's address, e.g. https://app.example.com */
	appURL: string;
	/** The public API's base, appURL + /api/public/v1 */
	baseURL: string;
	/** Kept only to scrub it from anything shown to the user. */
	secret: string | undefined;
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

/** Execute contexts take an item index for parameters; load-options and poll contexts do not. */
function authenticationOf(ctx: ApiContext): Authentication {
	const getParameter = ctx.getNodeParameter as (name: string, ...rest: unknown[]) => unknown;
	const value = 'getInputData' in ctx ? getParameter.call(ctx, 'authentication', 0, 'apiKey') : getParameter.call(ctx, 'authentication', 'apiKey');
	return value as Authentication;
}

/** Sends one request with the credential, through n8n's credential path. */
export async function sendAuthenticated(
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
