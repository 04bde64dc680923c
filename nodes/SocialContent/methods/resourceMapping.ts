import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { fetchFormats } from '../../shared/formats';
import { listField } from '../actions/fields/listInputs';
import { RunContext } from '../../shared/transport';

/** The chosen format's inputs as Start Generation's fields (from GET /studio/formats). */
export async function getFormatInputs(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const formatId = String(this.getNodeParameter('format', '', { extractValue: true }) ?? '').trim();
	if (!formatId)
		return { fields: [], emptyFieldsNotice: 'Choose a format first: its inputs appear here.' };
	const format = (await fetchFormats(new RunContext(this))).find((entry) => entry.id === formatId);
	if (!format || format.inputFields.length === 0) {
		return {
			fields: [],
			emptyFieldsNotice: format
				? `The service does not describe the inputs of "${format.name}". Set "Give Inputs As" to "Name/Value Pairs" or "JSON" and enter them by name.`
				: `No format "${formatId}" on this instance. Choose one from the list.`,
		};
	}
	return {
		fields: format.inputFields.map((input) =>
			// A list is filled under List Inputs, several lines at a time; here it is kept hidden
			// (see listInputs.ts).
			input.type === 'array'
				? listField(input)
				: {
						id: input.name,
						displayName: input.label,
						required: input.required,
						defaultMatch: false,
						canBeUsedToMatch: false,
						display: true,
						...(input.type ? { type: input.type } : {}),
						...(input.options ? { options: input.options } : {}),
					},
		),
	};
}
