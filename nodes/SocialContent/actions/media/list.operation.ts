import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { pagingFields, readList } from '../shared/paging';
import type { RunContext } from '../../transport';

export const description: INodeProperties[] = pagingFields({ resource: ['media'], operation: ['list'] });

/** GET /media: one item per file, following pages when the service pages the list. */
export async function execute(this: IExecuteFunctions, itemIndex: number, run: RunContext): Promise<INodeExecutionData[]> {
	const files = await readList(this, run, '/media', itemIndex, { listKeys: ['media', 'files'] });
	return files.map((file) => ({ json: (file && typeof file === 'object' ? file : { value: file }) as IDataObject }));
}
