import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunContext } from '../../../shared/transport';
import { outputsOf } from '../../../shared/shapes';
import {
	assertBinaryField,
	mediaFileById,
	uploadBinary,
	type MediaRef,
} from '../../../shared/media';
import { operationHint } from '../../../shared/hints';

export const mediaProperty: INodeProperties = {
	displayName: 'Media',
	name: 'media',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	placeholder: 'Add Media',
	default: {},
	description: 'Files attached to the post (to its first part), in this order',
	options: [
		{
			displayName: 'File',
			name: 'files',
			values: [
				{
					displayName: 'Attach',
					name: 'source',
					type: 'options',
					options: [
						{
							name: 'Binary File From Input',
							value: 'binary',
							description:
								'A file the input item carries (from Read File, HTTP Request, a form…), uploaded first',
						},
						{
							name: 'Outputs of Input Generation',
							value: 'generation',
							description:
								'The outputs of the generation in the input item (after the trigger or Start Generation)',
						},
						{
							name: 'From Media Library',
							value: 'library',
							description: 'A file already in the media library',
						},
						{
							name: 'By ID and Path',
							value: 'idPath',
							description: 'The ID and path returned by Media → Upload or Import From URL',
						},
					],
					default: 'binary',
				},
				{
					displayName: 'ID',
					name: 'id',
					type: 'string',
					default: '',
					placeholder: 'e.g. the ID from Media → Upload',
					displayOptions: { show: { source: ['idPath'] } },
				},
				{
					displayName: 'Input Binary Field',
					name: 'binaryPropertyName',
					type: 'string',
					default: 'data',
					description: 'Binary field of the input item that holds the file, e.g. data or output_0',
					displayOptions: { show: { source: ['binary'] } },
				},
				{
					displayName: 'Media File Name or ID',
					name: 'mediaId',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getMediaFiles' },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					displayOptions: { show: { source: ['library'] } },
				},
				{
					displayName: 'Path',
					name: 'path',
					type: 'string',
					default: '',
					placeholder: 'e.g. the path from Media → Upload',
					displayOptions: { show: { source: ['idPath'] } },
				},
			],
		},
	],
};

interface MediaEntry {
	source?: string;
	binaryPropertyName?: string;
	mediaId?: string;
	id?: string;
	path?: string;
}

/** One attachment, checked; `attach` does what it needs (an upload, a lookup) only when the post is sent. */
export interface PlannedMedia {
	attach: () => Promise<MediaRef[]>;
}

/**
 * The post's media, checked without a request (so a bad item costs no call); each entry's
 * `attach` then uploads or looks up as its source needs. An entry with no source is the old
 * ID-and-path form.
 */
export function planMedia(
	ctx: IExecuteFunctions,
	run: RunContext,
	itemIndex: number,
): PlannedMedia[] {
	const entries = ctx.getNodeParameter('media.files', itemIndex, []) as MediaEntry[];
	return entries.map((entry, index) => {
		const label = `Media file ${index + 1}`;
		switch (entry.source ?? 'idPath') {
			case 'binary': {
				const field = String(entry.binaryPropertyName ?? 'data').trim() || 'data';
				assertBinaryField(ctx, field, `${label}: Input Binary Field`, itemIndex);
				const fix = `The service answered the upload without them. Try ${operationHint('upload')} with the same file to see its answer.`;
				return {
					attach: async () => [
						mediaRef(ctx, await uploadBinary(ctx, run, field, itemIndex), label, fix, itemIndex),
					],
				};
			}
			case 'generation': {
				const outputs = generationOutputs(ctx, label, itemIndex);
				return { attach: async () => outputs };
			}
			case 'library': {
				const id = String(entry.mediaId ?? '').trim();
				if (!id)
					throw parameterError(
						ctx,
						`${label}: no media file chosen`,
						'Choose a file from the media library list.',
						itemIndex,
					);
				return { attach: async () => [await mediaFileById(ctx, run, id, itemIndex)] };
			}
			default: {
				const fix = `Use the id and path returned by ${operationHint('upload')} or ${operationHint('importFromUrl')}, or choose another way to attach it.`;
				const ref = mediaRef(ctx, { id: entry.id, path: entry.path }, label, fix, itemIndex);
				return { attach: async () => [ref] };
			}
		}
	});
}

/** Every output of the generation the input item holds (normalised, simplified or raw). */
function generationOutputs(ctx: IExecuteFunctions, label: string, itemIndex: number): MediaRef[] {
	const json = (ctx.getInputData()[itemIndex]?.json ?? {}) as IDataObject;
	const outputs = outputsOf(json);
	if (outputs.length === 0) {
		const status = typeof json.status === 'string' ? ` (its status is "${json.status}")` : '';
		throw parameterError(
			ctx,
			`${label}: the input item is not a finished generation with outputs${status}`,
			'Connect this node after the Social Content Trigger (Generation Finished) or after Start Generation with Wait for Completion on.',
			itemIndex,
		);
	}
	const fix =
		'The generation lists this output without a media library id. Upload the file (Binary File From Input, with Download Outputs on) instead.';
	return outputs.map((output, index) =>
		mediaRef(
			ctx,
			{ id: output.id, path: output.location },
			`${label}: output ${index + 1}`,
			fix,
			itemIndex,
		),
	);
}

/** A file as the post attaches it; `fix` says what to do when its id or path is missing. */
function mediaRef(
	ctx: IExecuteFunctions,
	file: IDataObject,
	label: string,
	fix: string,
	itemIndex: number,
): MediaRef {
	const id = file.id === undefined || file.id === null ? '' : String(file.id as string).trim();
	const path = typeof file.path === 'string' ? file.path.trim() : '';
	if (!id || !path) {
		throw parameterError(
			ctx,
			`${label} needs both an ID and a path (got ${id ? `ID "${id}"` : 'no ID'} and ${path ? `path "${path}"` : 'no path'})`,
			fix,
			itemIndex,
		);
	}
	return { id, path };
}

function parameterError(
	ctx: IExecuteFunctions,
	message: string,
	description: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}
