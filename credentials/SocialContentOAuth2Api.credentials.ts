import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { appUrlExpression, instanceUrlProperty } from './instanceUrlExpression';

/**
 * Authorization-code grant against the service's OAuth apps. n8n sends the token request
 * form-urlencoded (RFC 6749). The issued token never expires; nodes send it raw, without "Bearer".
 */
export class SocialContentOAuth2Api implements ICredentialType {
	name = 'socialContentOAuth2Api';

	displayName = 'Social Content OAuth2 API';

	extends = ['oAuth2Api'];

	icon: Icon = {
		light: 'file:../icons/socialContent.svg',
		dark: 'file:../icons/socialContent.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-social-content/n8n-nodes-social-content#credentials';

	properties: INodeProperties[] = [
		instanceUrlProperty,
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Use PKCE',
			name: 'usePkce',
			type: 'boolean',
			default: false,
			description:
				'Whether to add a PKCE S256 code challenge to the authorization (supported by the service)',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `=${appUrlExpression('$self["instanceUrl"]')}/oauth/authorize`,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `=${appUrlExpression('$self["instanceUrl"]')}/api/oauth/token`,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			// Client id and secret go in the token request's body, as the service's docs show.
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
	];
}
