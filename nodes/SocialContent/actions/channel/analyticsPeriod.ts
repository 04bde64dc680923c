import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The period of the analytics endpoints, sent as their `date` query. The spec leaves its format
 * open ("Format of the `date` parameter … not shown"); a number of days is what the service's own
 * application sends, so the field asks for days.
 */
export function analyticsPeriodField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Period (Days)',
		name: 'periodDays',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 7,
		description: 'How many days back the analytics cover, e.g. 7 for the last week',
		displayOptions: { show },
	};
}

export function analyticsQuery(ctx: IExecuteFunctions, itemIndex: number): { date: string } {
	const days = Number(ctx.getNodeParameter('periodDays', itemIndex, 7));
	if (!Number.isInteger(days) || days < 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"Period (Days)" must be a whole number of days, 1 or more (got ${String(days)})`,
			{
				itemIndex,
				description: 'Enter for example 7 for the last week or 30 for the last month.',
			},
		);
	}
	return { date: String(days) };
}
