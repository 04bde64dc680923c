import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requiredText } from './parameters';

/** Common platforms; the service's list is not closed, so "Custom" takes any other value. */
const PLATFORMS = [
	{ name: 'Not Set', value: '' },
	{ name: 'Facebook', value: 'facebook' },
	{ name: 'Instagram', value: 'instagram' },
	{ name: 'LinkedIn', value: 'linkedin' },
	{ name: 'Threads', value: 'threads' },
	{ name: 'TikTok', value: 'tiktok' },
	{ name: 'X (Twitter)', value: 'x' },
	{ name: 'YouTube', value: 'youtube' },
	{ name: 'Custom', value: 'custom' },
];

/** The Platform dropdown and its Custom Platform field, for the operation they are shown in. */
export function platformFields(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Platform',
			name: 'platform',
			type: 'options',
			options: PLATFORMS,
			default: '',
			description: 'The platform the hook is meant for. Choose Custom for one not in the list.',
			displayOptions: { show },
		},
		{
			displayName: 'Custom Platform',
			name: 'customPlatform',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. pinterest',
			description: 'Platform value sent as is',
			displayOptions: { show: { ...show, platform: ['custom'] } },
		},
	];
}

/** The platform to send, or undefined when not set; Custom needs its value. */
export function platformValue(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const platform = ctx.getNodeParameter('platform', itemIndex, '') as string;
	if (platform === 'custom')
		return requiredText(ctx, 'customPlatform', 'Custom Platform', itemIndex);
	return platform.trim() || undefined;
}
