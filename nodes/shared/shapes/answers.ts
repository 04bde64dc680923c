/**
 * Small answers the spec leaves open, each read where its operation needs it.
 */
import type { IDataObject } from 'n8n-workflow';

import { asRecord, unwrapList } from './lists';
import { fileLocation } from './generations';

/**
 * GET /social/:provider. The spec: "Response of `GET /social/:provider` beyond a sign-in URL …:
 * not shown." A bare string is the URL; `url`, `signInUrl`, `authUrl` or `link` name it.
 */
export function readConnectUrl(answer: unknown): IDataObject {
	const json = { ...asRecord(answer, 'url') };
	json.url ??= (json.signInUrl ?? json.authUrl ?? json.link) as string | undefined;
	return json;
}

/**
 * GET /is-connected. The spec: "Response of `GET /is-connected`: not shown." A bare boolean, or
 * `connected`/`isConnected`, as a boolean or its text, becomes `connected: true|false`.
 */
export function readIsConnected(answer: unknown): IDataObject {
	const json = { ...asRecord(answer, 'connected') };
	const said = json.connected ?? json.isConnected;
	if (said === true || said === 'true') json.connected = true;
	else if (said === false || said === 'false') json.connected = false;
	return json;
}

/**
 * POST /hooks/generate. The hooks' list shape is not shown: a list (bare or under `hooks`) of
 * records or of texts, or one record.
 */
export function readHooks(answer: unknown): IDataObject[] {
	return (unwrapList(answer, ['hooks']) ?? [answer]).map(
		(hook): IDataObject =>
			hook && typeof hook === 'object' ? (hook as IDataObject) : { hook: hook as string },
	);
}

/** The id of what an item created or names, under the names the spec uses for each kind. */
export function createdId(json: IDataObject): string | undefined {
	const id = json.id ?? json.postId ?? json.generationId ?? json.mediaId;
	return id === undefined || id === null || id === '' ? undefined : String(id as string);
}

/**
 * A media library file's name for a dropdown. The spec: "Fields of items in the media library
 * list: not shown." `name`, `fileName`, else the last part of its location, else its id.
 */
export function mediaFileName(file: IDataObject): string {
	const location = fileLocation(file);
	return String(file.name ?? file.fileName ?? location?.split('/').pop() ?? file.id);
}

/** The time a dropdown shows for a media file: created, else last changed. */
export function mediaFileTime(file: IDataObject): unknown {
	return file.createdAt ?? file.updatedAt;
}

/**
 * GET /agents/ping's `organization`, as one text that names the account. The spec: "Types of
 * these fields: not shown." A text or number is the name itself; a record is named by its `id`
 * (else `name`, else the whole record); anything else (absent, empty) is undefined.
 */
export function readOrganization(answer: unknown): string | undefined {
	const organization = (asRecord(answer, 'ok') as IDataObject).organization;
	if (typeof organization === 'string') return organization || undefined;
	if (typeof organization === 'number') return String(organization);
	if (!organization || typeof organization !== 'object') return undefined;
	const record = organization as IDataObject;
	const name = record.id ?? record.name;
	if (typeof name === 'string' || typeof name === 'number') return String(name) || undefined;
	return JSON.stringify(organization);
}
