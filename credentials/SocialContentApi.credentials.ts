import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { appUrlExpression, instanceUrlProperty } from './instanceUrlExpression';

export class SocialContentApi implements ICredentialType {
	name = 'socialContentApi';

	displayName = 'Social Content API';

	icon: Icon = {
		light: 'file:../icons/socialContent.svg',
		dark: 'file:../icons/socialContent.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-social-content/n8n-nodes-social-content#credentials';

	properties: INodeProperties[] = [
		instanceUrlProperty,
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Created in the application under its agents area. Sent as is, without "Bearer".',
		},
	];

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
		},
		rules: [
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
			},
		],
	};
}
