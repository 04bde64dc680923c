import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { appUrlExpression, instanceUrlProperty } from './instanceUrlExpression';
import { locationOf, type RawResponse } from '../nodes/shared/transport/connection';
import { apiBaseUrl, movedInstanceUrl } from '../nodes/shared/transport/instanceUrl';

export class SocialContentApi implements ICredentialType {
	name = 'socialContentApi';

	displayName = 'Social Content API';

	icon: Icon = {
		light: 'file:../icons/socialContent.svg',
		dark: 'file:../icons/socialContent.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-social-content/n8n-nodes-social-content#credentials';

	properties: INodeProperties[] = [
		instanceUrlProperty,
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Created in the application under its agents area. Sent as is, without "Bearer".',
		},
		{
			// Empty, so n8n runs preAuthentication before the credential test's request (n8n 2.41
			// no longer marks its test node, so an empty expirable field is what makes it run), and
			// before each request of n8n's own credential path (the HTTP Request node with this
			// credential; the Social Content nodes do not use it). Nothing is ever stored in it.
			displayName: 'Instance Checked',
			name: 'instanceChecked',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
	];

	/**
	 * Before the test sends the key: asks the Instance URL, without the key, whether it redirects to
	 * another origin (http → https, apex → www, a moved domain). n8n would carry the key there and
	 * the test would pass while every node call failed; the test fails instead, naming the address
	 * to use. Returns nothing to store.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const url = `${apiBaseUrl(String(credentials.instanceUrl ?? ''))}/agents/ping`;
		const response = (await this.helpers.httpRequest({
			method: 'GET',
			url,
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			json: false,
		})) as RawResponse;
		const location = locationOf(response);
		if (response.statusCode < 300 || response.statusCode >= 400 || !location) return {};
		const to = new URL(location, url);
		if (to.origin === new URL(url).origin) return {};
		throw new Error(
			`The Instance URL redirects (HTTP ${response.statusCode}) to ${to.href}, another address, where the key is not sent. Set the Instance URL to ${movedInstanceUrl(location, url)}.`,
		);
	}

	// The service wants the raw key in Authorization, with no scheme in front of it.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: `=${appUrlExpression('$credentials.instanceUrl')}/api/public/v1`,
			url: '/agents/ping',
			method: 'GET',
			// n8n would follow a redirect to another origin and carry the key there, and the test
			// would pass while every node call failed: a redirect fails the test instead.
			disableFollowRedirect: true,
		},
		// n8n's tester checks each rule by its type; the type only lists arrays of one kind.
		rules: [
			...[301, 302, 303, 307, 308].map(
				(status): IAuthenticateRuleResponseCode => ({
					type: 'responseCode',
					properties: {
						value: status,
						message: `The Instance URL redirects (HTTP ${status}) to another address, where the key is not sent. Open the Instance URL in a browser and use the address it ends up at (for example https:// instead of http://, or with www.), without extra paths.`,
					},
				}),
			),
			{
				// n8n fails the test when get(body, key) === value: a web page or a broken answer (a
				// string) has no `ok`.
				type: 'responseSuccessBody',
				properties: {
					key: 'ok',
					value: undefined,
					message:
						"The Instance URL did not answer with the API's JSON (a web page or a broken answer). Use the address of your instance, e.g. https://app.example.com",
				},
			} satisfies IAuthenticateRuleResponseSuccessBody,
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}
