/** The path of the public API below the application's address. */
export const API_PATH = '/api/public/v1';

/**
 * The application's address from what the user typed as Instance URL: trimmed, without trailing
 * slashes and without a pasted `/api` or `/api/public/v1`. Kept in step with
 * credentials/instanceUrlExpression.ts, which says the same as an n8n expression.
 */
export function appUrl(instanceUrl: string): string {
	return String(instanceUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api(\/public(\/v1)?)?$/i, '');
}

/** Base URL of the public API, for example `https://app.example.com/api/public/v1`. */
export function apiBaseUrl(instanceUrl: string): string {
	return `${appUrl(instanceUrl)}${API_PATH}`;
}

/**
 * The Instance URL a redirect points to: where the public API sits at the new address (the part
 * of its path before `/api/public/v1`), else its origin. For a message saying what to set.
 */
export function movedInstanceUrl(location: string, from: string): string {
	const to = new URL(location, from);
	const at = to.pathname.indexOf(API_PATH);
	return at > 0 ? `${to.origin}${to.pathname.slice(0, at)}` : to.origin;
}
