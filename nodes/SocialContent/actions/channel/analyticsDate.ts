import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The `date` query of the analytics endpoints. Its format is not in the spec: sent as given. */
export function analyticsDateField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Date',
		name: 'date',
		type: 'string',
		default: '',
		placeholder: 'e.g. 7',
		description:
			'Sent as the "date" query parameter, as typed: the period your instance expects (for example a number of days). Empty leaves it out.',
		displayOptions: { show },
	};
}

export function analyticsQuery(ctx: IExecuteFunctions, itemIndex: number): { date: string } | undefined {
	const date = String(ctx.getNodeParameter('date', itemIndex, '') ?? '').trim();
	return date ? { date } : undefined;
}
