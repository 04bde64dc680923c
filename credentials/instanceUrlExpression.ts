import type { INodeProperties } from 'n8n-workflow';

/**
 * The application's address as an n8n expression over a credential field, for the places where a
 * credential must give a URL before any node code runs (credential test, OAuth2 URLs).
 * Same rule as `appUrl()` in nodes/shared/transport/instanceUrl.ts (a test holds both to
 * one table): trim, drop trailing slashes, and drop a pasted `/api` or `/api/public/v1`.
 */
export function appUrlExpression(field: string): string {
	return `{{ String(${field} ?? '').trim().replace(/\\/+$/, '').replace(/\\/api(\\/public(\\/v1)?)?$/i, '') }}`;
}

/** The Instance URL field both credentials start with. */
export const instanceUrlProperty: INodeProperties = {
	displayName: 'Instance URL',
	name: 'instanceUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://app.example.com',
	description:
		'Address of your instance of the service, as you open it in the browser. A pasted /api or /api/public/v1 is ignored.',
};
