import type { INodeProperties } from 'n8n-workflow';

import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import * as checkConnection from './checkConnection.operation';
import * as getBrandProfile from './getBrandProfile.operation';

export const operations: Record<SocialContentOperations['account'], Operation> = {
	checkConnection,
	getBrandProfile,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Check Connection',
				value: 'checkConnection',
				description: 'Check that the credential works and see its organization',
				action: 'Check the connection',
			},
			{
				name: 'Get Brand Profile',
				value: 'getBrandProfile',
				description: 'Get the brand profile of the account',
				action: 'Get the brand profile',
			},
		],
		default: 'checkConnection',
	},
	...checkConnection.description,
	...getBrandProfile.description,
];
