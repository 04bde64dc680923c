import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../../shared/hints';
import type { SocialContentOperations } from '../node.type';
import type { Operation } from '../types';
import * as importFromUrl from './importFromUrl.operation';
import * as list from './list.operation';
import * as upload from './upload.operation';

export const operations: Record<SocialContentOperations['media'], Operation> = {
	upload,
	importFromUrl,
	list,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		options: [
			{
				name: 'Get Many',
				value: 'list',
				description: 'Get the files of the media library',
				action: 'Get many media files',
			},
			{
				...OPERATIONS.importFromUrl.option,
				description: 'Import a file from a public URL',
				action: 'Import media from a URL',
			},
			{
				// The value written out: n8n's lint holds the default to the values it can read.
				name: OPERATIONS.upload.option.name,
				value: 'upload',
				description: 'Upload a file from a binary field',
				action: 'Upload media',
			},
		],
		default: 'upload',
	},
	...upload.description,
	...importFromUrl.description,
	...list.description,
];
