import type { INodeProperties } from 'n8n-workflow';

export interface PickerSpec {
	displayName: string;
	name: string;
	/** What it is and where an ID comes from: read by people and by AI agents using the node as a tool. */
	description: string;
	/** The listSearch method that fills "From List". */
	searchListMethod: string;
	placeholder: string;
}

/** A resource locator: pick from a searchable list, or give the ID (typed, or from an expression). */
export function picker(spec: PickerSpec, show: Record<string, string[]>): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: spec.placeholder },
		],
	};
}
