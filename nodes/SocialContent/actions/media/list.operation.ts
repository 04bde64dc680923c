import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { MEDIA_LIBRARY } from '../../../shared/media';
import { pagingFields, readList } from '../../../shared/paging';
import { simplifyFile, simplifyProperty } from '../../../shared/simplify';
import type { RunContext } from '../../../shared/transport';

const show = { resource: ['media'], operation: ['list'] };

export const description: INodeProperties[] = [
	...pagingFields(show),
	...updateDisplayOptions({ show }, [simplifyProperty]),
];

/**
 * GET /media: one item per file, following pages when the service pages the list. Simplified, each
 * file's location is one `path` (what Post → Create attaches), whichever name the service used.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: RunContext,
): Promise<INodeExecutionData[]> {
	const files = await readList(this, run, MEDIA_LIBRARY.path, itemIndex, MEDIA_LIBRARY.reading);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return files.map((entry) => {
		const file = (entry && typeof entry === 'object' ? entry : { value: entry }) as IDataObject;
		return { json: simplify ? simplifyFile(file) : file };
	});
}
