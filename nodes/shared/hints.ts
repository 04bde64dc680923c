import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The operations an error's advice points to, named as the panel shows them and as a tool's caller
 * sends them: a person reads the label, an agent or MCP client the values. Written out, since the
 * trigger reaches these through nodes/shared, which takes nothing from the action node;
 * test/unit/hints.test.cts holds them to the node's description.
 */
export const OPERATIONS = {
	getGeneration: ['Studio → Get Generation', 'studio', 'getGeneration'],
	listGenerations: ['Studio → Get Many Generations', 'studio', 'listGenerations'],
	getCredits: ['Studio → Get Credits', 'studio', 'getCredits'],
	listFormats: ['Studio → Get Many Formats', 'studio', 'listFormats'],
	listChannels: ['Channel → Get Many', 'channel', 'list'],
	getConnectUrl: ['Channel → Get Connect URL', 'channel', 'getConnectUrl'],
	upload: ['Media → Upload', 'media', 'upload'],
	importFromUrl: ['Media → Import From URL', 'media', 'importFromUrl'],
} as const;

/** `"Studio → Get Generation" (resource "studio", operation "getGeneration")`. */
export function operationHint(which: keyof typeof OPERATIONS): string {
	const [label, resource, operation] = OPERATIONS[which];
	return `"${label}" (resource "${resource}", operation "${operation}")`;
}

/** Something the user must know that is not an error: on the output pane, and in n8n's log. */
export function noticeOnOutput(ctx: IExecuteFunctions, message: string): void {
	ctx.logger.warn(`Social Content: ${message}`);
	ctx.addExecutionHints?.({ message, location: 'outputPane' });
}

/** A choice named as the panel shows it and as it is sent: `"Publish Now" (now)`. */
export function choiceHint(label: string, value: string): string {
	return `"${label}" (${value})`;
}
