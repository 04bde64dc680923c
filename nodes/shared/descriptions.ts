import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_S } from './transport/exchange';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_S } from './transport/rateLimit';

/** Shared by the action node and the trigger: both offer the same two credentials. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
};

export function credentialsFor(): INodeCredentialDescription[] {
	return [
		{
			name: 'socialContentApi',
			required: true,
			displayOptions: { show: { authentication: ['apiKey'] } },
		},
		{
			name: 'socialContentOAuth2Api',
			required: true,
			displayOptions: { show: { authentication: ['oAuth2'] } },
		},
	];
}

/** How the transport behaves for every operation of the action node. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrent Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 1,
			description:
				'How many items are sent at once. When the service says "too many requests", all of them wait together. Output order stays the order of the input items.',
		},
		{
			displayName: 'Max Rate Limit Wait (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
			description:
				'When the service says "too many requests", wait as long as it asks and try again, up to this many seconds in total per request; after that the item fails',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_S,
			description:
				'How long a request may take, up to the end of its whole answer: an answer still arriving then is cut. A file download may take longer: it is cut only after this long without data. A read that times out is tried again; a create is not (it may have gone through).',
		},
	],
};
