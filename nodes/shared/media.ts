import type { IDataObject, IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, type RunContext } from './transport';
import { StreamedFile, StreamingForm } from './transport/multipart';
import { shortDate } from './dates';
import { walkPages } from './paging';
import { mediaFileName, mediaFileTime } from './shapes';
import { simplifyFile } from './simplify';
import { operationHint } from './hints';

/**
 * How the media library is read: GET /media, a list under one of these keys, and what a 404 of
 * the route means (the real open-source backend has no GET /media at all).
 */
export const MEDIA_LIBRARY = {
	path: '/media',
	reading: {
		listKeys: ['media', 'files'],
		missingRoute: {
			message: 'This instance has no media library to list (GET /media answered 404)',
			description:
				'Its API cannot list media files, so they cannot be picked from a list. Attach files to a post as Binary File From Input or Outputs of Input Generation, or give the file\'s ID and path (from Media → Upload) with "By ID and Path".',
		},
	},
};

/** A media library file as a post attaches it. */
export interface MediaRef {
	id: string;
	path: string;
}

/** POST /upload of one binary field of the input item, streamed; the service's `{ id, path, … }`. */
export async function uploadBinary(
	ctx: IExecuteFunctions,
	run: RunContext,
	propertyName: string,
	itemIndex: number,
): Promise<IDataObject> {
	const form = new StreamingForm();
	form.append('file', await fileOf(ctx, itemIndex, propertyName));
	const response = await apiRequest(
		run,
		{ method: 'POST', path: '/upload', body: form },
		itemIndex,
	);
	return { ...(response as IDataObject) };
}

/** Fails, naming the fields there are, when the input item has no binary field of that name. */
export function assertBinaryField(
	ctx: IExecuteFunctions,
	propertyName: string,
	label: string,
	itemIndex: number,
): void {
	const item = ctx.getInputData()[itemIndex];
	if (item?.binary?.[propertyName]) return;
	const present = Object.keys(item?.binary ?? {});
	throw new NodeOperationError(
		ctx.getNode(),
		`The input item has no binary field "${propertyName}"`,
		{
			itemIndex,
			description: present.length
				? `Its binary fields are: ${present.join(', ')}. Set "${label}" to one of them.`
				: 'The input item has no binary data at all. Put a node that reads or downloads a file before this one.',
		},
	);
}

/** The file, streamed from n8n's binary data store when it is there (filesystem, S3), else from memory. */
async function fileOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<StreamedFile> {
	const binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const name =
		binary.fileName ?? `${propertyName}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const type = binary.mimeType || 'application/octet-stream';
	if (binary.id) {
		const binaryId = binary.id;
		const { fileSize } = await ctx.helpers.getBinaryMetadata(binaryId);
		return new StreamedFile(
			name,
			type,
			fileSize,
			async () => await ctx.helpers.getBinaryStream(binaryId),
		);
	}
	const content = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return new StreamedFile(name, type, content.length, async () => [content]);
}

/** Pages of the media library a dropdown reads (newest first in the service's order). */
const PICKER_PAGES = 5;

/** The media library's latest files for a dropdown: "name · date" → id. */
export async function mediaFileOptions(run: RunContext): Promise<INodePropertyOptions[]> {
	const options: INodePropertyOptions[] = [];
	await walkPages(
		run,
		MEDIA_LIBRARY.path,
		{ ...MEDIA_LIBRARY.reading, maxPages: PICKER_PAGES },
		(list) => {
			for (const entry of list) {
				const file = asFile(entry);
				if (file.id === undefined || typeof file.path !== 'string') continue;
				const name = mediaFileName(file);
				const when = shortDate(mediaFileTime(file), run.n8n.getTimezone());
				options.push({ name: when ? `${name} · ${when}` : name, value: String(file.id) });
			}
			return true;
		},
	);
	return options;
}

/**
 * The path of a media library file chosen by id. A dropdown holds one value, so the path is looked
 * up in GET /media, reading pages until the id shows; what was read is kept for the run.
 */
export async function mediaFileById(
	ctx: IExecuteFunctions,
	run: RunContext,
	id: string,
	itemIndex: number,
): Promise<MediaRef> {
	const known = await run.once('mediaLibrary', async () => new Map<string, string>());
	if (!known.has(id)) {
		await walkPages(run, MEDIA_LIBRARY.path, { ...MEDIA_LIBRARY.reading, itemIndex }, (list) => {
			for (const entry of list) {
				const file = asFile(entry);
				if (file.id !== undefined && typeof file.path === 'string')
					known.set(String(file.id), file.path);
			}
			return !known.has(id);
		});
	}
	const path = known.get(id);
	if (!path) {
		throw new NodeOperationError(ctx.getNode(), `Media file "${id}" is not in the media library`, {
			itemIndex,
			description: `Choose a file from the list under Media, or upload it first: ${operationHint('upload')}.`,
		});
	}
	return { id, path };
}

function asFile(entry: unknown): IDataObject {
	return simplifyFile((entry && typeof entry === 'object' ? entry : {}) as IDataObject);
}
