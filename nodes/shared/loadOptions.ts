import type { ILoadOptionsFunctions, INode, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { channelLabel, fetchChannels } from './channels';
import { fetchFormats, formatLabel } from './formats';
import { RunContext } from './transport';

/** The dropdowns both nodes show; the action node's own are in its methods/loadOptions.ts. */

/** Connected channels for multi-select fields: "Acme · X". */
export async function getChannels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		const channels = await fetchChannels(new RunContext(this));
		return channels
			.map((channel) => ({ name: channelLabel(channel), value: channel.id }))
			.sort((a, b) => a.name.localeCompare(b.name));
	});
}

/** Studio formats with their price, for the trigger's format filter. */
export async function getFormats(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await orReason(this, async () => {
		const formats = await fetchFormats(new RunContext(this));
		return formats.map((format) => ({ name: formatLabel(format), value: format.id }));
	});
}

/**
 * A list that cannot be loaded offers nothing to pick: the error is thrown, and n8n's editor then
 * shows the field as not loadable, with this message on its issue marker. The marker shows the
 * message alone, so it carries the fix as well as the cause (a wrong Instance URL: set it; a
 * revoked key: open the credential). An entry carrying the reason could be chosen and saved as if
 * it were a channel.
 */
export async function orReason(
	ctx: ILoadOptionsFunctions,
	load: () => Promise<INodePropertyOptions[]>,
): Promise<INodePropertyOptions[]> {
	try {
		return await load();
	} catch (error) {
		// Already said for the panel (a list inside this one failed, or "Choose a format first"):
		// it stands as it is, not wrapped twice (n8n's NodeOperationError hands back the one given).
		if (error instanceof NodeOperationError) throw new NodeOperationError(ctx.getNode(), error);
		const { message, description } = error as { message?: string; description?: string | null };
		const cause = (message || 'no answer').replace(/\.$/, '');
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not load the list: ${cause}.${description ? ` ${description}` : ''}`,
			{ ...(description ? { description } : {}) },
		);
	}
}

/**
 * The values of a multi-choice field loaded from the service: the choices, or an expression's
 * array or comma-separated text. Earlier versions offered a list that could not be loaded as one
 * entry with an empty value, and the editor saved it when chosen: such a value is flagged (it
 * would otherwise narrow a filter to nothing, or vanish), asking to choose again.
 */
export function chosenValues(
	node: INode,
	values: unknown,
	field: string,
	itemIndex?: number,
): string[] {
	if (typeof values === 'string' || typeof values === 'number')
		return String(values)
			.split(',')
			.map((value) => value.trim())
			.filter(Boolean);
	const list = (Array.isArray(values) ? values : []).map((value) => String(value ?? '').trim());
	if (list.includes('')) {
		throw new NodeOperationError(
			node,
			`"${field}" holds an empty choice, saved while its list could not be loaded`,
			{
				...(itemIndex === undefined ? {} : { itemIndex }),
				description: `Open "${field}", remove the empty choice and choose again from the list.`,
			},
		);
	}
	return list;
}
