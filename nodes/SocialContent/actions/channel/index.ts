import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../../shared/hints';
import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import * as disconnect from './disconnect.operation';
import * as getAnalytics from './getAnalytics.operation';
import * as getConnectUrl from './getConnectUrl.operation';
import * as getPostAnalytics from './getPostAnalytics.operation';
import * as isConnected from './isConnected.operation';
import * as list from './list.operation';

export const operations: Record<SocialContentOperations['channel'], Operation> = {
	list,
	getConnectUrl,
	isConnected,
	disconnect,
	getAnalytics,
	getPostAnalytics,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['channel'] } },
		options: [
			{
				name: 'Disconnect',
				value: 'disconnect',
				description: 'Disconnect a channel',
				action: 'Disconnect a channel',
			},
			{
				name: 'Get Analytics',
				value: 'getAnalytics',
				description: 'Get analytics of a channel',
				action: 'Get channel analytics',
			},
			{
				...OPERATIONS.getConnectUrl.option,
				description: 'Get a sign-in URL to connect a new channel',
				action: 'Get a connect URL',
			},
			{
				// The value written out: n8n's lint holds the default to the values it can read.
				name: OPERATIONS.listChannels.option.name,
				value: 'list',
				description: 'Get the connected channels',
				action: 'Get many channels',
			},
			{
				name: 'Get Post Analytics',
				value: 'getPostAnalytics',
				description: 'Get analytics of a published post',
				action: 'Get post analytics',
			},
			{
				name: 'Is Connected',
				value: 'isConnected',
				description:
					'Tell whether at least one channel is connected; it takes no channel (to find one, use Get Many)',
				action: 'Check whether any channel is connected',
			},
		],
		default: 'list',
	},
	...list.description,
	...getConnectUrl.description,
	...isConnected.description,
	...disconnect.description,
	...getAnalytics.description,
	...getPostAnalytics.description,
];
