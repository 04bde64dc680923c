import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import * as account from './actions/account';
import * as channel from './actions/channel';
import * as hook from './actions/hook';
import * as media from './actions/media';
import * as post from './actions/post';
import { router } from './actions/router';
import * as studio from './actions/studio';
import { MAIN_CONNECTION } from '../shared/compat';
import {
	authenticationProperty,
	credentialsFor,
	requestOptionsProperty,
} from '../shared/descriptions';
import { RESOURCES } from '../shared/hints';
import { listSearch, loadOptions, resourceMapping } from './methods';

export class SocialContent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Content',
		name: 'socialContent',
		icon: {
			light: 'file:../../icons/socialContent.svg',
			dark: 'file:../../icons/socialContent.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Score and generate hooks, generate media in the studio, and schedule posts to social channels',
		defaults: { name: 'Social Content' },
		usableAsTool: true,
		inputs: [MAIN_CONNECTION],
		outputs: [MAIN_CONNECTION],
		credentials: credentialsFor(),
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: Object.entries(RESOURCES).map(([value, name]) => ({ name, value })),
				default: 'post',
			},
			...account.description,
			...channel.description,
			...hook.description,
			...media.description,
			...post.description,
			...studio.description,
			requestOptionsProperty,
		],
	};

	methods = { loadOptions, listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
