import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { appUrlExpression } from './instanceUrlExpression';

export class SocialContentApi implements ICredentialType {
	name = 'socialContentApi';

	displayName = 'Social Content API';

	icon: Icon = {
		light: 'file:../icons/socialContent.svg',
		dark: 'file:../icons/socialContent.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-social-content/n8n-nodes-social-content#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Instance URL',
			name: 'instanceUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://app.example.com',
			description:
				'Address of your instance of the service, as you open it in the browser. A pasted /api or /api/public/v1 is ignored.',
		},
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
				// n8n fails the test when get(body, key) === value: a web page (a string) has no `ok`.
				type: 'responseSuccessBody',
				properties: {
					key: 'ok',
					value: undefined,
					message:
						'The Instance URL serves a web page, not the API. Use the address of your instance, e.g. https://app.example.com',
				},
			},
		],
	};
}
